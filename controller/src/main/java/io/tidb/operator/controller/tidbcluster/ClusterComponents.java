package io.tidb.operator.controller.tidbcluster;

import io.tidb.operator.controller.config.FailoverSettings;
import io.tidb.operator.controller.tidbcluster.discovery.DiscoveryStep;
import io.tidb.operator.controller.tidbcluster.pd.PdStep;
import io.tidb.operator.controller.tidbcluster.pipeline.ComponentStep;
import io.tidb.operator.controller.tidbcluster.pipeline.Prerequisite;
import io.tidb.operator.controller.tidbcluster.pump.PumpStep;
import io.tidb.operator.controller.tidbcluster.ticdc.TicdcStep;
import io.tidb.operator.controller.tidbcluster.tidb.TidbStep;
import io.tidb.operator.controller.tidbcluster.tiflash.TiflashStep;
import io.tidb.operator.controller.tidbcluster.tikv.TikvStep;
import io.tidb.operator.controller.tidbcluster.tiproxy.TiproxyStep;
import java.util.List;

/**
 * The registration list: every component of a {@code TidbCluster}, in upstream's order, each one
 * line. A component takes part in the pipeline, status and the {@code Ready} verdict by being
 * here; what one waits for from another is handed over as a {@code Prerequisite}.
 */
public final class ClusterComponents {

  private ClusterComponents() {}

  /**
   * discovery → PD → TiProxy → TiFlash → TiKV → Pump → TiDB → TiCDC (upstream's order). A
   * component's scale-in and upgrade wait while an earlier one is busy, so the upgrade order is
   * the same. With {@code spec.pump}, TiDB also waits for an online pump.
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
    TiflashStep tiflash = new TiflashStep(pd.quorum());
    TikvStep tikv = new TikvStep(pd.quorum());
    TiproxyStep tiproxy = new TiproxyStep(Prerequisite.NONE);
    PumpStep pump = new PumpStep(Prerequisite.NONE);
    Prerequisite pdQuorum = pd.quorum();
    Prerequisite tikvUp = tikv.anyStoreUp();
    Prerequisite pumpOnline = pump.available();
    TidbStep tidb = new TidbStep(ctx -> tikvUp.unmet(ctx).or(() -> pumpOnline.unmet(ctx)));
    TicdcStep ticdc = new TicdcStep(ctx -> pdQuorum.unmet(ctx).or(() -> tikvUp.unmet(ctx)));
    pd.useFailover(failover);
    tikv.useFailover(failover);
    tidb.useFailover(failover);
    tiflash.useFailover(failover);
    return List.of(
        new DiscoveryStep(discoveryImage), pd, tiproxy, tiflash, tikv, pump, tidb, ticdc);
  }
}
