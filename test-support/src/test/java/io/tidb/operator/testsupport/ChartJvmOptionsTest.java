package io.tidb.operator.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

class ChartJvmOptionsTest {

  @Test
  void theMemoryLimitComesFirstAsMaxRamThenTheJvmOptionsInOrder() throws Exception {
    String values = """
        controller:
          jvmOptions: "-XX:+UseSerialGC  -Xss512k -XX:+ExitOnOutOfMemoryError"
          resources:
            limits:
              memory: 512Mi
        webhook:
          jvmOptions: "-Xmx1m"
        """;
    assertEquals(List.of("-XX:MaxRAM=512m", "-XX:+UseSerialGC", "-Xss512k", "-XX:+ExitOnOutOfMemoryError"),
        ChartJvmOptions.fromValues(values, "controller").jvmArgs());
  }

  @Test
  void aChartWithoutAMemoryLimitIsRefusedNamingTheField() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ChartJvmOptions.fromValues("controller:\n  jvmOptions: \"-Xss512k\"\n", "controller"));
    assertTrue(e.getMessage().startsWith("controller.resources.limits.memory"), e.getMessage());
  }

  @Test
  void quantitiesBecomeMaxRamValues() {
    assertEquals("768m", ChartJvmOptions.maxRam("controller", "768Mi"));
    assertEquals("1g", ChartJvmOptions.maxRam("controller", "1Gi"));
    assertEquals("1536m", ChartJvmOptions.maxRam("controller", "1536Mi"));
    assertEquals("500000000", ChartJvmOptions.maxRam("controller", "500M"));
    assertEquals("4k", ChartJvmOptions.maxRam("controller", "4096"));
    assertThrows(IllegalArgumentException.class, () -> ChartJvmOptions.maxRam("controller", "0.5Gi"));
  }

  @Test
  void theLastMaxRamOfTheOptionsIsTheLimit() {
    assertEquals(OptionalDouble.of(768), ChartJvmOptions.maxRamMiB(List.of("-XX:MaxRAM=1g", "-Xss512k", "-XX:MaxRAM=768m")));
    assertEquals(OptionalDouble.of(0.5), ChartJvmOptions.maxRamMiB(List.of("-XX:MaxRAM=512k")));
    assertEquals(OptionalDouble.empty(), ChartJvmOptions.maxRamMiB(List.of("-Xmx200m")));
    assertThrows(IllegalArgumentException.class, () -> ChartJvmOptions.maxRamMiB(List.of("-XX:MaxRAM=lots")));
  }

  @Test
  void theEnvironmentsLiteralValuesAreKept() throws Exception {
    String values = """
        webhook:
          jvmOptions: "-Xss512k"
          env:
          - {name: MALLOC_ARENA_MAX, value: "2"}
          - name: POD_NAME
            valueFrom: {fieldRef: {fieldPath: metadata.name}}
          resources:
            limits:
              memory: 1Gi
        """;
    ChartJvmOptions webhook = ChartJvmOptions.fromValues(values, "webhook");
    assertEquals(List.of("-XX:MaxRAM=1g", "-Xss512k"), webhook.jvmArgs());
    assertEquals(List.of("MALLOC_ARENA_MAX=2"), webhook.env(), "a value from the downward API has no value here");
  }

  @Test
  void mallocArenaMaxBecomesTheContainersFirstVariableUnlessZero() throws Exception {
    String values = """
        controller:
          jvmOptions: "-Xss512k"
          mallocArenaMax: 2
          env:
          - {name: TZ, value: UTC}
          resources:
            limits:
              memory: 512Mi
        webhook:
          jvmOptions: "-Xss512k"
          mallocArenaMax: 0
          resources:
            limits:
              memory: 512Mi
        """;
    assertEquals(List.of("MALLOC_ARENA_MAX=2", "TZ=UTC"), ChartJvmOptions.fromValues(values, "controller").env());
    assertEquals(List.of(), ChartJvmOptions.fromValues(values, "webhook").env());
  }

  @Test
  void variablesBecomeAProcessEnvironmentInOrderTheLaterOfTwoNamesWinning() {
    assertEquals(List.of("MALLOC_ARENA_MAX", "OPTS"), List.copyOf(
        ChartJvmOptions.environment(List.of("MALLOC_ARENA_MAX=2", "OPTS=a=b", "MALLOC_ARENA_MAX=1")).keySet()));
    assertEquals("a=b", ChartJvmOptions.environment(List.of("OPTS=a=b")).get("OPTS"));
    assertEquals("1", ChartJvmOptions.environment(List.of("MALLOC_ARENA_MAX=2", "MALLOC_ARENA_MAX=1"))
        .get("MALLOC_ARENA_MAX"));
    assertEquals("", ChartJvmOptions.environment(List.of("EMPTY=")).get("EMPTY"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ChartJvmOptions.environment(List.of("NOVALUE")));
    assertTrue(e.getMessage().contains("\"NOVALUE\""), e.getMessage());
  }

  @Test
  void theProjectChartHasAControllerAndAWebhookLimit() throws Exception {
    assertTrue(ChartJvmOptions.ofProjectChart("controller").jvmArgs().get(0).startsWith("-XX:MaxRAM="));
    assertTrue(ChartJvmOptions.ofProjectChart("webhook").jvmArgs().get(0).startsWith("-XX:MaxRAM="));
  }
}
