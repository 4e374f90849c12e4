package io.tidb.operator.controller.tidbcluster.discovery;

import io.tidb.operator.api.v1alpha1.dm.DmCluster;
import io.tidb.operator.api.v1alpha1.dm.MasterFailureMember;
import io.tidb.operator.controller.tidbcluster.discovery.DmBootstrapRules.DmClusterView;

/** Reduces a DMCluster to the {@link DmClusterView} dm-master discovery decides with. Pure. */
public final class DmClusterViews {
  private DmClusterViews() {}

  public static DmClusterView of(DmCluster dc) {
    int replicas = dc.getSpec().getMaster() == null ? 0 : dc.getSpec().getMaster().getReplicas();
    if (dc.getStatus() != null && dc.getStatus().getMaster() != null
        && dc.getStatus().getMaster().getFailureMembers() != null) {
      for (MasterFailureMember f : dc.getStatus().getMaster().getFailureMembers().values()) {
        if (Boolean.TRUE.equals(f.getMemberDeleted())) {
          replicas++;
        }
      }
    }
    boolean tls = dc.getSpec().getTlsCluster() != null && Boolean.TRUE.equals(dc.getSpec().getTlsCluster().getEnabled());
    return new DmClusterView(dc.getMetadata().getName(), dc.getMetadata().getNamespace(),
        dc.getMetadata().getResourceVersion(), replicas, tls ? "https" : "http");
  }
}
