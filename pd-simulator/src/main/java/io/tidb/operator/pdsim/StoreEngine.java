package io.tidb.operator.pdsim;

/** What kind of server a store is: TiFlash stores carry the label {@code engine=tiflash}. */
public enum StoreEngine {
  TIKV("tikv", 20160, 20160, 20180),
  TIFLASH("tiflash", 3930, 20170, 20292);

  private final String component;
  private final int port;
  private final int peerPort;
  private final int statusPort;

  StoreEngine(String component, int port, int peerPort, int statusPort) {
    this.component = component;
    this.port = port;
    this.peerPort = peerPort;
    this.statusPort = statusPort;
  }

  /** The {@code app.kubernetes.io/component} label value of its pods. */
  public String component() {
    return component;
  }

  /**
   * The store's address on its pod's peer Service. The Service is named after the pod's own
   * TidbCluster ({@code <tc>-<component>-<ordinal>}), which in a heterogeneous cluster is not the
   * one whose PD the store joined.
   */
  String address(ClusterKey cluster, String podName, int onPort) {
    int suffix = podName.lastIndexOf("-" + component + "-");
    String owner = suffix > 0 ? podName.substring(0, suffix) : cluster.name();
    return podName + "." + owner + "-" + component + "-peer." + cluster.namespace()
        + ".svc:" + onPort;
  }

  String address(ClusterKey cluster, String podName) {
    return address(cluster, podName, port);
  }

  String peerAddress(ClusterKey cluster, String podName) {
    return address(cluster, podName, peerPort);
  }

  String statusAddress(ClusterKey cluster, String podName) {
    return address(cluster, podName, statusPort);
  }
}
