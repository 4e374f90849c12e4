package io.tidb.operator.controller.steps;

import io.tidb.operator.controller.pipeline.ComponentStep;
import java.util.List;

/** The pipeline's steps in upstream's order. */
public final class ComponentSteps {

  private ComponentSteps() {}

  /**
   * discovery → PD → TiKV → TiDB. TiFlash goes between PD and TiKV, Pump between TiKV and TiDB,
   * TiCDC after TiDB, when they are added.
   *
   * @param discoveryImage the discovery Deployment's image
   */
  public static List<ComponentStep> upstreamOrder(String discoveryImage) {
    return List.of(new DiscoveryStep(discoveryImage), new PdStep(), new TikvStep(), new TidbStep());
  }
}
