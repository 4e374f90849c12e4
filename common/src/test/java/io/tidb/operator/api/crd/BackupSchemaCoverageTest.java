package io.tidb.operator.api.crd;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.tidb.operator.api.CompatExamples;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Our generated Backup, Restore and BackupSchedule CRDs cover every property path of upstream's. */
class BackupSchemaCoverageTest {

  @ParameterizedTest
  @ValueSource(strings = {"backups", "restores", "backupschedules"})
  void weLackNoUpstreamPath(String plural) {
    JsonNode ours = CompatExamples.readYaml("META-INF/fabric8/" + plural + ".pingcap.com-v1.yml");
    JsonNode upstream = CompatExamples.readYaml("compat/crds/pingcap.com_" + plural + ".yaml");
    Set<String> lack = SchemaCoverageTest.lacking(ours, upstream);
    assertEquals(Set.of(), lack);
  }

  @ParameterizedTest
  @ValueSource(strings = {"backups:bk", "restores:rt", "backupschedules:bks"})
  void shortNamesAndColumnsAreUpstreams(String pluralAndShort) {
    String plural = pluralAndShort.split(":")[0];
    JsonNode ours = CompatExamples.readYaml("META-INF/fabric8/" + plural + ".pingcap.com-v1.yml");
    JsonNode upstream = CompatExamples.readYaml("compat/crds/pingcap.com_" + plural + ".yaml");
    assertEquals(pluralAndShort.split(":")[1], ours.path("spec").path("names").path("shortNames").get(0).asText());
    CrdEntry entry = CrdCatalog.byPlural(plural).orElseThrow();
    JsonNode finished = CrdCatalog.SERIALIZATION.convertValue(
        entry.finish(CrdCatalog.parse(ours.toString())), JsonNode.class);
    JsonNode ourColumns = finished.path("spec").path("versions").get(0).path("additionalPrinterColumns");
    JsonNode upstreamColumns = upstream.path("spec").path("versions").get(0).path("additionalPrinterColumns");
    assertEquals(upstreamColumns.size(), ourColumns.size());
    for (int i = 0; i < upstreamColumns.size(); i++) {
      for (String f : new String[] {"name", "type", "jsonPath", "priority"}) {
        assertEquals(upstreamColumns.get(i).path(f), ourColumns.get(i).path(f), plural + " column " + i + " " + f);
      }
    }
  }
}
