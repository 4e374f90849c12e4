package io.tidb.operator.controller.tidbcluster.discovery;

import io.tidb.operator.api.v1alpha1.cluster.PdFailureMember;
import io.tidb.operator.api.v1alpha1.cluster.PdMember;
import io.tidb.operator.api.v1alpha1.cluster.PdSpec;
import io.tidb.operator.api.v1alpha1.cluster.PdStatus;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterAddresses;
import io.tidb.operator.controller.tidbcluster.pipeline.PdOwner;
import io.tidb.operator.controller.tidbcluster.tls.ComponentHosts;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

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
        referencedPdPeer(tc), pdSources(tc));
  }

  /**
   * Where discovery lists PD's members for a joining PD pod, in upstream's order: the cluster's
   * own PD Service (when it has PD), the referenced cluster's PD Service for a heterogeneous
   * cluster ({@code spec.cluster}; its headless Service with {@code spec.acrossK8s}), then each
   * member of {@code status.pd.peerMembers} at its client URL. The first that answers is used: a
   * joined cluster's first PD pod has no Service endpoints of its own to ask.
   */
  static List<ClusterView.PdSource> pdSources(TidbCluster tc) {
    var spec = tc.getSpec();
    String scheme = spec.getTlsCluster() != null
        && Boolean.TRUE.equals(spec.getTlsCluster().getEnabled()) ? "https" : "http";
    String port = ":" + ClusterAddresses.PD_CLIENT_PORT;
    List<ClusterView.PdSource> sources = new ArrayList<>();
    if (spec.getPd() != null) {
      String host = ComponentHosts.pdService(
          tc.getMetadata().getName(), tc.getMetadata().getNamespace(), spec.getClusterDomain());
      sources.add(new ClusterView.PdSource(
          URI.create(scheme + "://" + host + port), host, "the PD Service " + host));
    }
    if (PdOwner.heterogeneous(tc)) {
      var ref = spec.getCluster();
      String namespace = blank(ref.getNamespace()) ? tc.getMetadata().getNamespace() : ref.getNamespace();
      String domain = blank(ref.getClusterDomain()) ? spec.getClusterDomain() : ref.getClusterDomain();
      String host = Boolean.TRUE.equals(spec.getAcrossK8s())
          ? ComponentHosts.pdPeerService(ref.getName(), namespace, domain)
          : ComponentHosts.pdService(ref.getName(), namespace, domain);
      sources.add(new ClusterView.PdSource(URI.create(scheme + "://" + host + port), host,
          "the referenced cluster's PD Service " + host));
    }
    PdStatus status = tc.getStatus() == null ? null : tc.getStatus().getPd();
    if (status != null && status.getPeerMembers() != null) {
      for (PdMember m : new TreeMap<>(status.getPeerMembers()).values()) {
        URI url = clientUrl(m.getClientURL());
        if (url != null) {
          sources.add(new ClusterView.PdSource(url, url.getHost(),
              "PD member " + m.getName() + " of status.pd.peerMembers"));
        }
      }
    }
    return sources;
  }

  private static URI clientUrl(String reported) {
    if (blank(reported)) {
      return null;
    }
    try {
      URI url = URI.create(reported.trim());
      return url.getHost() == null ? null : url;
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  private static boolean blank(String s) {
    return s == null || s.isBlank();
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
