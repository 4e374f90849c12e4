package io.tidb.operator.api.crd;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.tidb.operator.api.CompatExamples;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Our generated TidbMonitor CRD covers every property path of upstream's. */
class TidbMonitorSchemaCoverageTest {

  @Test
  void weLackNoUpstreamPath() {
    JsonNode ours = CompatExamples.readYaml("META-INF/fabric8/tidbmonitors.pingcap.com-v1.yml");
    JsonNode upstream = CompatExamples.readYaml("compat/crds/pingcap.com_tidbmonitors.yaml");
    Set<String> lack = SchemaCoverageTest.lacking(ours, upstream);
    assertEquals(Set.of(), lack);
  }
}
