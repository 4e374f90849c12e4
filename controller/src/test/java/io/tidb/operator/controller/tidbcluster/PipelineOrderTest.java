package io.tidb.operator.controller.tidbcluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tidb.operator.controller.tidbcluster.pipeline.ComponentStep;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Upstream's sync order of the components this operator manages (PDMS → PD → TiProxy → TiFlash
 * → TiKV → Pump → TiDB → TiCDC, without the ones it refuses). A component's scale-in and upgrade
 * wait while an earlier one is busy, so the upgrade order follows: PD → TiProxy → TiFlash → TiKV →
 * Pump → TiDB → TiCDC.
 */
class PipelineOrderTest {

  @Test
  void stepsRunInUpstreamOrder() {
    assertEquals(List.of("discovery", "pd", "tiproxy", "tiflash", "tikv", "pump", "tidb", "ticdc"),
        ClusterComponents.upstreamOrder("operator:test").stream().map(ComponentStep::name).toList());
  }
}
