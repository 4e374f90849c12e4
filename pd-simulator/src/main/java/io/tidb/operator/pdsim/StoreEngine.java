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

  String address(ClusterKey cluster, String podName, int onPort) {
    return podName + "." + cluster.name() + "-" + component + "-peer." + cluster.namespace()
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
