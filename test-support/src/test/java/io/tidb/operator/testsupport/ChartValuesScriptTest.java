package io.tidb.operator.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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

  @ParameterizedTest
  @ValueSource(strings = {"controller", "webhook"})
  void theScriptsJvmSettingsAreTheChartsJvmOptionsAndEnvironment(String component) throws Exception {
    ChartJvmOptions chart = ChartJvmOptions.ofProjectChart(component);

    List<String> lines = jvmSettings(ProjectDirectory.root().resolve("charts/tidb-operator/values.yaml"), component);

    assertEquals(chart.jvmArgs().subList(1, chart.jvmArgs().size()), ChartJvmOptions.split(lines.get(0)));
    assertEquals(chart.env().stream().filter(v -> v.startsWith("MALLOC_ARENA_MAX=")).toList(),
        lines.subList(1, lines.size()));
  }

  @Test
  void noArenaLimitIsExportedForZero(@TempDir Path dir) throws Exception {
    Path values = dir.resolve("values.yaml");
    Files.writeString(values, "webhook:\n  jvmOptions: \"-Xss1m\"\n  mallocArenaMax: 0\n");

    assertEquals(List.of("-Xss1m"), jvmSettings(values, "webhook"));
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

  /**
   * {@code chart_jvm_settings FILE SECTION} of hack/chart-values.lib.sh, run by bash: the line of
   * JVM_OPTIONS it sets, then MALLOC_ARENA_MAX=n if it exported that (the test's own environment
   * has it removed first).
   */
  private static List<String> jvmSettings(Path values, String section) throws IOException, InterruptedException {
    return run(". \"$1\" && chart_jvm_settings \"$2\" \"$3\" && printf '%s\\n' \"$JVM_OPTIONS\""
        + " && env | grep '^MALLOC_ARENA_MAX=' || true", values, section).lines().toList();
  }

  /** {@code chart_value FILE SECTION KEY} of hack/chart-values.lib.sh, run by bash. */
  private static String chartValue(Path values, String section, String key)
      throws IOException, InterruptedException {
    return run(". \"$1\" && chart_value \"$2\" \"$3\" \"$4\"", values, section, key).strip();
  }

  /** {@code script} run by bash with hack/chart-values.lib.sh, the values file and {@code args} as $1, $2, .... */
  private static String run(String script, Path values, String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of("bash", "-c", script, "bash",
        ProjectDirectory.root().resolve("hack/chart-values.lib.sh").toString(), values.toString()));
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().remove("MALLOC_ARENA_MAX");
    Process bash = builder.start();
    String out = new String(bash.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!bash.waitFor(30, TimeUnit.SECONDS) || bash.exitValue() != 0) {
      throw new IllegalStateException("bash " + String.join(" ", args) + " failed: " + out);
    }
    return out;
  }
}
