package io.tidb.operator.controller.tidbcluster.pipeline;

import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.shared.TidbClusterRef;

/**
 * The TidbCluster whose PD this cluster's components join and whose PD the operator reads for
 * it: the cluster itself, or, for a heterogeneous cluster without a PD of its own ({@code
 * spec.cluster} set and no {@code spec.pd}), the referenced cluster, as upstream does.
 *
 * @param name the PD's TidbCluster
 * @param namespace its namespace: {@code spec.cluster.namespace}, defaulting to this cluster's
 * @param clusterDomain {@code spec.cluster.clusterDomain}, defaulting to this cluster's {@code
 *     spec.clusterDomain}; empty when neither is set
 * @param referenced whether the PD is another TidbCluster's
 */
public record PdOwner(String name, String namespace, String clusterDomain, boolean referenced) {

  public PdOwner {
    clusterDomain = clusterDomain == null ? "" : clusterDomain;
  }

  public static PdOwner of(TidbCluster tc) {
    String ownDomain = tc.getSpec().getClusterDomain();
    TidbClusterRef ref = tc.getSpec().getCluster();
    if (!heterogeneous(tc) || tc.getSpec().getPd() != null) {
      return new PdOwner(tc.getMetadata().getName(), tc.getMetadata().getNamespace(), ownDomain,
          false);
    }
    String namespace = blank(ref.getNamespace()) ? tc.getMetadata().getNamespace() : ref.getNamespace();
    String domain = blank(ref.getClusterDomain()) ? ownDomain : ref.getClusterDomain();
    return new PdOwner(ref.getName(), namespace, domain, true);
  }

  /**
   * Whether the operator reads the referenced cluster's PD through its headless Service {@code
   * <ref>-pd-peer} rather than {@code <ref>-pd}: a heterogeneous cluster without PD with {@code
   * spec.acrossK8s}, as upstream's PD control does (the client Service of another Kubernetes
   * cluster is not reachable; its pods' DNS names are).
   */
  public static boolean readsPeerService(TidbCluster tc) {
    return of(tc).referenced() && Boolean.TRUE.equals(tc.getSpec().getAcrossK8s());
  }

  /** Whether {@code spec.cluster} names another TidbCluster (upstream's {@code Heterogeneous()}). */
  public static boolean heterogeneous(TidbCluster tc) {
    return tc.getSpec().getCluster() != null && !blank(tc.getSpec().getCluster().getName());
  }

  /**
   * The PD address the components of a cluster in {@code fromNamespace} are given: {@code
   * <name>-pd:2379} in the same namespace, {@code <name>-pd.<namespace>:2379} from another one.
   */
  public String clientAddress(String fromNamespace) {
    return namespace.equals(fromNamespace)
        ? ClusterAddresses.pdClient(name)
        : ClusterAddresses.PD.nameIn(name) + "." + namespace + ":" + ClusterAddresses.PD_CLIENT_PORT;
  }

  private static boolean blank(String s) {
    return s == null || s.isBlank();
  }
}
