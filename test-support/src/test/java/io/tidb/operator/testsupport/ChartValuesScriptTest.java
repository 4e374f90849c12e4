package io.tidb.operator.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * hack/chart-values.lib.sh (what the start-time scripts give the JVM) reads the chart's values as
 * {@link ChartJvmOptions} (what the benchmarks give it) does, whatever the order of sections and
 * keys.
 */
class ChartValuesScriptTest {

  @ParameterizedTest
  @ValueSource(strings = {"controller", "webhook"})
  void theScriptReadsTheProjectChartAsTheBenchmarksDo(String component) throws Exception {
    Path values = ProjectDirectory.root().resolve("charts/tidb-operator/values.yaml");
    ChartJvmOptions chart = ChartJvmOptions.ofProjectChart(component);

    assertEquals(chart.jvmArgs().subList(1, chart.jvmArgs().size()),
        ChartJvmOptions.split(chartValue(values, component, "jvmOptions")));
    assertEquals(chart.env().stream().filter(v -> v.startsWith("MALLOC_ARENA_MAX=")).toList(),
        List.of("MALLOC_ARENA_MAX=" + chartValue(values, component, "mallocArenaMax")));
  }

  @Test
  void sectionsAndKeysAreFoundWhateverTheirOrder(@TempDir Path dir) throws Exception {
    Path values = dir.resolve("values.yaml");
    Files.writeString(values, String.join("\n",
        "# a comment: with a colon",
        "webhook:",
        "  mallocArenaMax: 4   # four",
        "  resources:",
        "    limits:",
        "      memory: 512Mi",
        "  jvmOptions: '-Xss1m -XX:+UseSerialGC'",
        "controller:",
        "  resources:",
        "    limits:",
        "      memory: 768Mi",
        "    jvmOptions: \"-Xnested\"",
        "  jvmOptions: \"-XX:TieredStopAtLevel=1\"",
        "  mallocArenaMax: 2",
        ""));
    String text = Files.readString(values);

    assertEquals(ChartJvmOptions.fromValues(text, "webhook").jvmArgs().subList(1, 3),
        ChartJvmOptions.split(chartValue(values, "webhook", "jvmOptions")));
    assertEquals("4", chartValue(values, "webhook", "mallocArenaMax"));
    assertEquals("-XX:TieredStopAtLevel=1", chartValue(values, "controller", "jvmOptions"));
    assertEquals("2", chartValue(values, "controller", "mallocArenaMax"));
    assertEquals("", chartValue(values, "pd", "jvmOptions"));
  }

  /** {@code chart_value FILE SECTION KEY} of hack/chart-values.lib.sh, run by bash. */
  private static String chartValue(Path values, String section, String key)
      throws IOException, InterruptedException {
    Path lib = ProjectDirectory.root().resolve("hack/chart-values.lib.sh");
    Process bash = new ProcessBuilder("bash", "-c", ". \"$1\" && chart_value \"$2\" \"$3\" \"$4\"", "bash",
        lib.toString(), values.toString(), section, key).redirectErrorStream(true).start();
    String out = new String(bash.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!bash.waitFor(30, TimeUnit.SECONDS) || bash.exitValue() != 0) {
      throw new IllegalStateException("chart_value " + section + " " + key + " failed: " + out);
    }
    return out.strip();
  }
}
