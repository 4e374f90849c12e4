package io.tidb.operator.controller.tidbcluster.tls;

/**
 * The Service host names the operator requires in a TLS cluster's server certificates, whatever
 * address it connects to: the names upstream's certificate guide puts in each component's
 * certificate, and the hosts of the operator's in-cluster URLs.
 */
public final class ComponentHosts {

  private ComponentHosts() {}

  /** {@code <tc>-pd.<ns>}, or {@code <tc>-pd.<ns>.svc.<clusterDomain>} with a cluster domain. */
  public static String pdService(String cluster, String namespace, String clusterDomain) {
    return service(cluster + "-pd", namespace, clusterDomain);
  }

  /**
   * {@code <tc>-pd-peer.<ns>}, or {@code <tc>-pd-peer.<ns>.svc.<clusterDomain>}: PD's headless
   * Service, read across Kubernetes clusters (upstream's certificates name it too).
   */
  public static String pdPeerService(String cluster, String namespace, String clusterDomain) {
    return service(cluster + "-pd-peer", namespace, clusterDomain);
  }

  /** {@code <tc>-tidb.<ns>}, or {@code <tc>-tidb.<ns>.svc.<clusterDomain>}. */
  public static String tidbService(String cluster, String namespace, String clusterDomain) {
    return service(cluster + "-tidb", namespace, clusterDomain);
  }

  /** {@code <dc>-dm-master.<ns>}: the name a DMCluster's dm-master certificate must carry. */
  public static String dmMasterService(String dc, String namespace) {
    return service(dc + "-dm-master", namespace, null);
  }

  /**
   * {@code <tc>-ticdc-peer.<ns>}, or {@code <tc>-ticdc-peer.<ns>.svc.<clusterDomain>}: the
   * headless Service TiCDC's pods are addressed under (TiCDC has no other Service).
   */
  public static String ticdcPeerService(String cluster, String namespace, String clusterDomain) {
    return service(cluster + "-ticdc-peer", namespace, clusterDomain);
  }

  /**
   * {@code <tc>-tiproxy-peer.<ns>}, or {@code <tc>-tiproxy-peer.<ns>.svc.<clusterDomain>}: the
   * headless Service TiProxy's pods are addressed under, and where the operator reaches their API.
   */
  public static String tiproxyPeerService(String cluster, String namespace, String clusterDomain) {
    return service(cluster + "-tiproxy-peer", namespace, clusterDomain);
  }

  /**
   * TiFlash's peer Service, {@code <tc>-tiflash-peer.<ns>}: the headless Service TiFlash's pods
   * are addressed under, and where the operator reaches their proxy status port.
   */
  public static String tiflashPeerService(String cluster, String namespace, String clusterDomain) {
    return service(cluster + "-tiflash-peer", namespace, clusterDomain);
  }

  /**
   * {@code <tc>-pump.<ns>}, or {@code <tc>-pump.<ns>.svc.<clusterDomain>}: the headless Service
   * Pump's pods are addressed under. Upstream's guide gives a pump's certificate only the
   * wildcards under it ({@code *.<tc>-pump.<ns>}), so the operator checks each pod's own name
   * ({@link ServerNames#pumpPod}).
   */
  public static String pumpService(String cluster, String namespace, String clusterDomain) {
    return service(cluster + "-pump", namespace, clusterDomain);
  }

  private static String service(String service, String namespace, String clusterDomain) {
    return clusterDomain == null || clusterDomain.isBlank()
        ? service + "." + namespace
        : service + "." + namespace + ".svc." + clusterDomain;
  }
}
