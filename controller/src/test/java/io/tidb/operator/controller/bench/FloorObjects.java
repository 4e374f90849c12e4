package io.tidb.operator.controller.bench;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder;
import java.util.Objects;

/**
 * The floor of the benchmark: the operator's StatefulSets and Deployments copied into another
 * namespace as plain objects (no owner, no status, no server-set metadata), so the control plane
 * runs the same pods and claims with no operator involved.
 */
final class FloorObjects {

  private FloorObjects() {}

  /**
   * {@code sts}'s name, labels, annotations and spec in {@code namespace}. The pods run under the
   * namespace's default ServiceAccount: the operator's ServiceAccounts are not copied.
   */
  static StatefulSet copy(StatefulSet sts, String namespace) {
    StatefulSet copy = new StatefulSetBuilder()
        .withMetadata(plainMetadata(sts.getMetadata(), namespace))
        .withSpec(new StatefulSetBuilder(sts).build().getSpec())
        .build();
    defaultServiceAccount(copy.getSpec().getTemplate());
    return copy;
  }

  /** Like {@link #copy(StatefulSet, String)}, for a Deployment (the discovery service). */
  static Deployment copy(Deployment deployment, String namespace) {
    Deployment copy = new DeploymentBuilder()
        .withMetadata(plainMetadata(deployment.getMetadata(), namespace))
        .withSpec(new DeploymentBuilder(deployment).build().getSpec())
        .build();
    defaultServiceAccount(copy.getSpec().getTemplate());
    return copy;
  }

  /** Every desired pod is ready: {@code readyReplicas == replicas} (a missing replicas means 1). */
  static boolean ready(StatefulSet sts) {
    int desired = Objects.requireNonNullElse(sts.getSpec().getReplicas(), 1);
    return sts.getStatus() != null
        && Objects.requireNonNullElse(sts.getStatus().getReadyReplicas(), 0) == desired;
  }

  /** Like {@link #ready(StatefulSet)}, for a Deployment. */
  static boolean ready(Deployment deployment) {
    int desired = Objects.requireNonNullElse(deployment.getSpec().getReplicas(), 1);
    return deployment.getStatus() != null
        && Objects.requireNonNullElse(deployment.getStatus().getReadyReplicas(), 0) == desired;
  }

  private static ObjectMeta plainMetadata(ObjectMeta source, String namespace) {
    return new ObjectMetaBuilder()
        .withName(source.getName())
        .withNamespace(namespace)
        .withLabels(source.getLabels())
        .withAnnotations(source.getAnnotations())
        .build();
  }

  private static void defaultServiceAccount(PodTemplateSpec template) {
    template.getSpec().setServiceAccountName(null);
    template.getSpec().setServiceAccount(null);
  }
}
