package io.tidb.operator.controller.tidbcluster.pipeline;

/**
 * The addresses components publish to each other inside one cluster, the way DNS names are a
 * contract: TiKV and TiDB reach PD's client Service, PD reaches the discovery Service. Only what
 * another component needs is here; a component's private ports stay in its own package.
 */
public final class ClusterAddresses {

  public static final Component PD = new Component("pd");
  public static final Component DISCOVERY = new Component("discovery");
  public static final Component TIDB = new Component("tidb");

  /** PD's client port (HTTP API and gRPC). */
  public static final int PD_CLIENT_PORT = 2379;

  /** The discovery service's port, serving {@code /new/...} and {@code /verify/...}. */
  public static final int DISCOVERY_PORT = 10261;

  /** TiDB's status port (HTTP), which TiFlash reports to. */
  public static final int TIDB_STATUS_PORT = 10080;

  private ClusterAddresses() {}

  /** {@code <cluster>-pd:2379}: PD's client Service, as TiKV and TiDB are told it. */
  public static String pdClient(String cluster) {
    return PD.nameIn(cluster) + ":" + PD_CLIENT_PORT;
  }

  /** {@code <cluster>-discovery}: the discovery Service and Deployment. */
  public static String discoveryName(String cluster) {
    return DISCOVERY.nameIn(cluster);
  }
}
