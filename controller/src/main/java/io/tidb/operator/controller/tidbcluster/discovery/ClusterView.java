package io.tidb.operator.controller.tidbcluster.discovery;

import java.util.List;

/**
 * What discovery needs to know about its TidbCluster, read afresh for every request.
 *
 * @param name the TidbCluster name
 * @param namespace its namespace
 * @param resourceVersion its {@code metadata.resourceVersion}; a change resets the bootstrap count
 * @param desiredPdReplicas PD pods the StatefulSet should have: {@code spec.pd.replicas} plus PD
 *     failover replacements
 * @param scheme {@code http}, or {@code https} with cluster TLS
 * @param clusterDomain {@code spec.clusterDomain}, or empty
 * @param joinsOtherCluster true when {@code spec.cluster} references another TidbCluster whose PD
 *     this cluster's PD joins, so it never bootstraps a PD cluster of its own
 * @param pdAddresses {@code spec.pdAddresses}: existing PD client URLs the bootstrapping pod joins
 *     instead of creating a new PD cluster
 * @param peerMembers PD members of other (peer) clusters from {@code status.pd.peerMembers}
 * @param referencedPdPeer for a heterogeneous cluster without PD of its own, the referenced
 *     cluster's PD peer Service {@code <ref>-pd-peer.<ref-ns>.svc[.<domain>]}; empty otherwise
 * @param pdSources where discovery lists PD's members, in the order it tries them (see {@link
 *     ClusterViews#pdSources})
 */
public record ClusterView(
    String name, String namespace, String resourceVersion, int desiredPdReplicas, String scheme,
    String clusterDomain, boolean joinsOtherCluster, List<String> pdAddresses,
    List<PeerMember> peerMembers, String referencedPdPeer, List<PdSource> pdSources) {

  public ClusterView {
    clusterDomain = clusterDomain == null ? "" : clusterDomain;
    pdAddresses = pdAddresses == null ? List.of() : List.copyOf(pdAddresses);
    peerMembers = peerMembers == null ? List.of() : List.copyOf(peerMembers);
    referencedPdPeer = referencedPdPeer == null ? "" : referencedPdPeer;
    pdSources = pdSources == null ? List.of() : List.copyOf(pdSources);
  }

  /**
   * One place PD's member list can be read.
   *
   * @param url PD's base URL there
   * @param host the host its certificate must name under TLS
   * @param what what it is, for messages ("the PD Service", "PD member x of status.pd.peerMembers")
   */
  public record PdSource(java.net.URI url, String host, String what) {}

  /** A PD member of a peer cluster as recorded in status. */
  public record PeerMember(String name, String clientUrl, boolean health) {}
}
