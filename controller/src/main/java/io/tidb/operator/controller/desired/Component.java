package io.tidb.operator.controller.desired;

/**
 * The cluster members this operator builds objects for, with the label value and ports each uses.
 *
 * <p>The label value is also the object-name infix: {@code <cluster>-<label>} is the StatefulSet,
 * client Service and base ConfigMap name, {@code <cluster>-<label>-peer} the headless Service.
 */
public enum Component {
  PD("pd"),
  TIKV("tikv"),
  TIDB("tidb"),
  DISCOVERY("discovery");

  /** PD's client port (HTTP API and gRPC). */
  public static final int PD_CLIENT_PORT = 2379;
  /** PD's peer (etcd raft) port. */
  public static final int PD_PEER_PORT = 2380;
  /** TiKV's server (gRPC) port. */
  public static final int TIKV_SERVER_PORT = 20160;
  /** TiKV's status (HTTP metrics) port. */
  public static final int TIKV_STATUS_PORT = 20180;
  /** TiDB's MySQL protocol port. */
  public static final int TIDB_SERVER_PORT = 4000;
  /** TiDB's status (HTTP) port. */
  public static final int TIDB_STATUS_PORT = 10080;
  /** The discovery service's port, serving {@code /new/...} and {@code /verify/...}. */
  public static final int DISCOVERY_PORT = 10261;
  /** The discovery service's reverse proxy to PD's dashboard. */
  public static final int DISCOVERY_PROXY_PORT = 10262;

  private final String label;

  Component(String label) {
    this.label = label;
  }

  /** The value of {@code app.kubernetes.io/component} and the name infix, e.g. {@code tikv}. */
  public String label() {
    return label;
  }
}
