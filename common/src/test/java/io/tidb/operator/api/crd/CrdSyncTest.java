package io.tidb.operator.api.crd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The build step that finishes generated CRDs and checks the chart copies. */
class CrdSyncTest {

  @TempDir Path classes;
  @TempDir Path chart;

  private Path generated(CrdEntry entry) throws IOException {
    Path dir = Files.createDirectories(classes.resolve("META-INF/fabric8"));
    Path chartCopy = SchemaCoverageTest.repoFile("charts/tidb-operator/crds/" + entry.fileName());
    return Files.copy(chartCopy, dir.resolve(entry.fileName()));
  }

  private void run(boolean update) throws IOException {
    CrdSync.main(new String[] {classes.toString(), chart.toString(), Boolean.toString(update)});
  }

  @Test
  void aMissingChartCopyFailsAndUpdateWritesIt() throws IOException {
    for (CrdEntry entry : CrdCatalog.entries()) {
      generated(entry);
    }
    IllegalStateException failure = assertThrows(IllegalStateException.class, () -> run(false));
    assertTrue(failure.getMessage().contains("tidbclusters.pingcap.com-v1.yml is missing"),
        failure.getMessage());
    assertTrue(failure.getMessage().contains("-Dcrd.update=true"), failure.getMessage());

    run(true);
    for (CrdEntry entry : CrdCatalog.entries()) {
      assertEquals(Files.readString(SchemaCoverageTest.repoFile("charts/tidb-operator/crds/" + entry.fileName())),
          Files.readString(chart.resolve(entry.fileName())));
    }
    run(false);
  }

  @Test
  void aGeneratedCrdWithoutACatalogEntryFailsNamingIt() throws IOException {
    for (CrdEntry entry : CrdCatalog.entries()) {
      generated(entry);
    }
    Files.writeString(classes.resolve("META-INF/fabric8/widgets.pingcap.com-v1.yml"), "kind: x\n");
    IllegalStateException failure = assertThrows(IllegalStateException.class, () -> run(true));
    assertTrue(failure.getMessage().contains(
        "widgets.pingcap.com-v1.yml is generated but has no entry in " + CrdCatalog.class.getName()),
        failure.getMessage());
  }

  @Test
  void anEntryTheGeneratorDidNotWriteFails() throws IOException {
    Files.createDirectories(classes.resolve("META-INF/fabric8"));
    IllegalStateException failure = assertThrows(IllegalStateException.class, () -> run(true));
    assertTrue(failure.getMessage().contains(
        "tidbclusters.pingcap.com-v1.yml has a catalog entry but the generator did not write it"),
        failure.getMessage());
  }

  @Test
  void everyEntryHasADistinctFileAndIsFoundByIt() {
    assertEquals(CrdCatalog.entries().size(),
        CrdCatalog.entries().stream().map(CrdEntry::fileName).distinct().count());
    for (CrdEntry entry : CrdCatalog.entries()) {
      assertEquals(entry, CrdCatalog.byFileName(entry.fileName()).orElseThrow());
    }
  }
}
