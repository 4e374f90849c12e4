package io.tidb.operator.controller.monitor;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.tidb.operator.controller.runtime.ApplyOutcome;

/**
 * Objects the monitor controller writes without an informer: its Secrets (so the operator never
 * lists or watches Secrets) and the cluster-scoped RBAC of a {@code clusterScoped} monitor. Each
 * is read by name and applied only when the operator's fields differ. {@link KubeObjectsByName} is
 * the real one.
 */
public interface ObjectsByName {

  <R extends HasMetadata> ApplyOutcome apply(R desired);
}
