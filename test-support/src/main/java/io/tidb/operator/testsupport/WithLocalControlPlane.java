package io.tidb.operator.testsupport;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs the test class against the full local control plane from {@code hack/control-plane.sh}
 * (controllers, scheduler, kwok fake nodes): StatefulSets get Running, Ready pods and bound PVCs.
 * Declare {@code KubernetesClient} or {@link ClusterAccess} parameters to use it.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(LocalControlPlaneExtension.class)
public @interface WithLocalControlPlane {
}
