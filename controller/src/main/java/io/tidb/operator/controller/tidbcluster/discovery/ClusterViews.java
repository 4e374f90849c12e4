package io.tidb.operator.controller.tidbcluster.discovery;

import io.tidb.operator.api.v1alpha1.cluster.PdFailureMember;
import io.tidb.operator.api.v1alpha1.cluster.PdMember;
import io.tidb.operator.api.v1alpha1.cluster.PdSpec;
import io.tidb.operator.api.v1alpha1.cluster.PdStatus;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterAddresses;
import io.tidb.operator.controller.tidbcluster.pipeline.PdOwner;
import java.util.ArrayList;
import java.util.List;

/** Reduces a TidbCluster to the {@link ClusterView} discovery decides with. Pure. */
public final class ClusterViews {
  private ClusterViews() {}

  public static ClusterView of(TidbCluster tc) {
    var spec = tc.getSpec();
    PdStatus status = tc.getStatus() == null ? null : tc.getStatus().getPd();
    List<ClusterView.PeerMember> peers = new ArrayList<>();
    if (status != null && status.getPeerMembers() != null) {
      for (PdMember m : status.getPeerMembers().values()) {
        peers.add(new ClusterView.PeerMember(m.getName(), m.getClientURL(), Boolean.TRUE.equals(m.getHealth())));
      }
    }
    boolean tls = spec.getTlsCluster() != null && Boolean.TRUE.equals(spec.getTlsCluster().getEnabled());
    boolean joinsOther = spec.getCluster() != null && spec.getCluster().getName() != null
        && !spec.getCluster().getName().isEmpty();
    return new ClusterView(tc.getMetadata().getName(), tc.getMetadata().getNamespace(),
        tc.getMetadata().getResourceVersion(), desiredPdReplicas(spec.getPd(), status),
        tls ? "https" : "http", spec.getClusterDomain(), joinsOther, spec.getPdAddresses(), peers,
        referencedPdPeer(tc));
  }

  /**
   * Where a heterogeneous cluster without PD of its own finds PD, as upstream's discovery
   * answers {@code /verify/}: the referenced cluster's PD peer Service, in the {@link PdOwner}'s
   * namespace and cluster domain.
   */
  static String referencedPdPeer(TidbCluster tc) {
    PdOwner owner = PdOwner.of(tc);
    if (!owner.referenced()) {
      return "";
    }
    String domain = owner.clusterDomain().isEmpty() ? "" : "." + owner.clusterDomain();
    return ClusterAddresses.PD.nameIn(owner.name()) + "-peer." + owner.namespace() + ".svc" + domain;
  }

  /**
   * The PD StatefulSet's desired size as upstream computes it: {@code spec.pd.replicas}, plus one
   * per failure member whose PD member was already deleted (its replacement pod), plus the spare
   * replicas while a volume replacement runs.
   */
  static int desiredPdReplicas(PdSpec pd, PdStatus status) {
    if (pd == null) {
      return 0;
    }
    int replicas = pd.getReplicas() == null ? 0 : pd.getReplicas();
    if (status != null && status.getFailureMembers() != null) {
      for (PdFailureMember f : status.getFailureMembers().values()) {
        if (Boolean.TRUE.equals(f.getMemberDeleted())) {
          replicas++;
        }
      }
    }
    if (status != null && Boolean.TRUE.equals(status.getVolReplaceInProgress())) {
      replicas += pd.getSpareVolReplaceReplicas() == null ? 1 : pd.getSpareVolReplaceReplicas();
    }
    return replicas;
  }
}
