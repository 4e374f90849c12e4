package io.tidb.operator.api.crd;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.tidb.operator.api.CompatExamples;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Our generated DMCluster CRD covers every property path of upstream's but the one the
 * TidbCluster CRD also leaves out (conditions carry observedGeneration instead of lastUpdateTime),
 * and carries upstream's short name and printer columns.
 */
class DmClusterSchemaCoverageTest {

  private static final JsonNode OURS = CompatExamples.readYaml(DmClusterCrd.ENTRY.generatedResource());
  private static final JsonNode UPSTREAM = CompatExamples.readYaml("compat/crds/pingcap.com_dmclusters.yaml");

  @Test
  void weLackOnlyTheDocumentedConditionTimestamp() {
    Set<String> lack = SchemaCoverageTest.lacking(OURS, UPSTREAM);
    assertEquals(new TreeSet<>(Set.of("status.conditions[].lastUpdateTime")), lack);
  }

  @Test
  void namesAndPrinterColumnsAreUpstreams() {
    assertEquals(UPSTREAM.at("/spec/names/shortNames"), OURS.at("/spec/names/shortNames"));
    assertEquals("DMCluster", OURS.at("/spec/names/kind").asText());
    JsonNode upstreamColumns = UPSTREAM.at("/spec/versions/0/additionalPrinterColumns");
    JsonNode ourColumns = OURS.at("/spec/versions/0/additionalPrinterColumns");
    assertEquals(columns(upstreamColumns), columns(ourColumns));
  }

  /** Name, type, JSON path and priority of each column, in order (descriptions are ours). */
  private static List<String> columns(JsonNode columns) {
    List<String> out = new java.util.ArrayList<>();
    columns.forEach(c -> out.add(c.path("name").asText() + " " + c.path("type").asText() + " "
        + c.path("jsonPath").asText() + " " + c.path("priority").asInt(0)));
    return out;
  }
}
