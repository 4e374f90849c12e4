package io.tidb.operator.controller.desired;

import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder;

/**
 * Makes a desired StatefulSet applicable over an existing one. Kubernetes forbids changing a
 * StatefulSet's {@code selector}, {@code serviceName}, {@code podManagementPolicy} and
 * {@code volumeClaimTemplates} after creation (only replicas, template, updateStrategy,
 * minReadySeconds, ordinals and the PVC retention policy may change), and an apply that changes them
 * is rejected as a whole. Like upstream, which only ever updates replicas, template and strategy,
 * the operator keeps the existing values of those fields; storage size changes are made on the
 * PVCs themselves, not through the templates.
 */
public final class StatefulSetUpdates {
  private StatefulSetUpdates() {}

  /**
   * {@code desired} with the immutable fields taken from {@code existing}; {@code desired} itself
   * when there is no existing StatefulSet.
   */
  public static StatefulSet keepingImmutableFields(StatefulSet desired, StatefulSet existing) {
    if (existing == null || existing.getSpec() == null) {
      return desired;
    }
    return new StatefulSetBuilder(desired)
        .editSpec()
        .withSelector(existing.getSpec().getSelector())
        .withServiceName(existing.getSpec().getServiceName())
        .withPodManagementPolicy(existing.getSpec().getPodManagementPolicy())
        .withVolumeClaimTemplates(existing.getSpec().getVolumeClaimTemplates())
        .endSpec()
        .build();
  }
}
