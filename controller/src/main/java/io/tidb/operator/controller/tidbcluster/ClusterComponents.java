package io.tidb.operator.controller.tidbcluster;

import io.tidb.operator.controller.config.FailoverSettings;
import io.tidb.operator.controller.tidbcluster.discovery.DiscoveryStep;
import io.tidb.operator.controller.tidbcluster.pd.PdStep;
import io.tidb.operator.controller.tidbcluster.pipeline.ComponentStep;
import io.tidb.operator.controller.tidbcluster.tidb.TidbStep;
import io.tidb.operator.controller.tidbcluster.tikv.TikvStep;
import java.util.List;

/**
 * The registration list: every component of a {@code TidbCluster}, in upstream's order, each one
 * line. A component takes part in the pipeline, status and the {@code Ready} verdict by being
 * here; what one waits for from another is handed over as a {@code Prerequisite}.
 */
public final class ClusterComponents {

  private ClusterComponents() {}

  /**
   * discovery → PD → TiKV → TiDB. TiFlash goes between PD and TiKV, Pump between TiKV and TiDB,
   * TiCDC after TiDB, when they are added.
   *
   * @param discoveryImage the discovery Deployment's image
   */
  public static List<ComponentStep> upstreamOrder(String discoveryImage) {
    return upstreamOrder(discoveryImage, FailoverSettings.DEFAULTS);
  }

  /**
   * As {@link #upstreamOrder(String)}, with the process's failover settings.
   *
   * @param failover automatic failover of PD, TiKV and TiDB
   */
  public static List<ComponentStep> upstreamOrder(
      String discoveryImage, FailoverSettings failover) {
    PdStep pd = new PdStep();
    TikvStep tikv = new TikvStep(pd.quorum());
    TidbStep tidb = new TidbStep(tikv.anyStoreUp());
    pd.useFailover(failover);
    tikv.useFailover(failover);
    tidb.useFailover(failover);
    return List.of(new DiscoveryStep(discoveryImage), pd, tikv, tidb);
  }
}
