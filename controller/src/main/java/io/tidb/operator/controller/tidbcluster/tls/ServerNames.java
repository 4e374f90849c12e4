package io.tidb.operator.controller.tidbcluster.tls;

/**
 * The host names a TLS cluster's servers must present, one per component the operator calls
 * (see {@link ComponentHosts}); the operator checks each server certificate against these,
 * whatever address it connects to.
 *
 * @param pd PD's Service ({@code <pd-owner>-pd.<ns>}): the cluster's own, or the referenced
 *     cluster's for a heterogeneous cluster without PD
 * @param tidb TiDB's Service ({@code <tc>-tidb.<ns>})
 * @param ticdc TiCDC's peer Service ({@code <tc>-ticdc-peer.<ns>}), under which its pods are
 *     addressed
 * @param tiproxy TiProxy's peer Service ({@code <tc>-tiproxy-peer.<ns>})
 * @param tiflash TiFlash's peer Service ({@code <tc>-tiflash-peer.<ns>}), under which its pods
 *     are addressed
 * @param pump Pump's Service ({@code <tc>-pump.<ns>}); each pump is checked against its pod's
 *     name under it ({@link #pumpPod})
 */
public record ServerNames(String pd, String tidb, String ticdc, String tiproxy, String tiflash,
    String pump) {

  /** The names of cluster {@code name} whose PD is its own. */
  public static ServerNames of(String name, String namespace, String clusterDomain) {
    return new ServerNames(ComponentHosts.pdService(name, namespace, clusterDomain),
        ComponentHosts.tidbService(name, namespace, clusterDomain),
        ComponentHosts.ticdcPeerService(name, namespace, clusterDomain),
        ComponentHosts.tiproxyPeerService(name, namespace, clusterDomain),
        ComponentHosts.tiflashPeerService(name, namespace, clusterDomain),
        ComponentHosts.pumpService(name, namespace, clusterDomain));
  }

  /** The name pump pod {@code pod} must present: {@code <pod>.<tc>-pump.<ns>}. */
  public String pumpPod(String pod) {
    return pod + "." + pump;
  }

  /** These names with PD's replaced by {@code pdHost} (a referenced cluster's PD). */
  public ServerNames withPd(String pdHost) {
    return new ServerNames(pdHost, tidb, ticdc, tiproxy, tiflash, pump);
  }
}
