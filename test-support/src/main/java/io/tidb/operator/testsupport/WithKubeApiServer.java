package io.tidb.operator.testsupport;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs the test class against the JVM's shared etcd + kube-apiserver (no controllers, no nodes).
 * Declare {@code KubernetesClient} or {@link ClusterAccess} parameters to use it.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(KubeApiServerExtension.class)
public @interface WithKubeApiServer {
}
