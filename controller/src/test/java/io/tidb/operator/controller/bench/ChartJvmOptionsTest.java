package io.tidb.operator.controller.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tidb.operator.testsupport.ProjectDirectory;
import java.nio.file.Files;
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
        ChartJvmOptions.fromValues(values));
  }

  @Test
  void aChartWithoutAMemoryLimitIsRefusedNamingTheField() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ChartJvmOptions.fromValues("controller:\n  jvmOptions: \"-Xss512k\"\n"));
    assertTrue(e.getMessage().startsWith("controller.resources.limits.memory"), e.getMessage());
  }

  @Test
  void quantitiesBecomeMaxRamValues() {
    assertEquals("768m", ChartJvmOptions.maxRam("768Mi"));
    assertEquals("1g", ChartJvmOptions.maxRam("1Gi"));
    assertEquals("1536m", ChartJvmOptions.maxRam("1536Mi"));
    assertEquals("500000000", ChartJvmOptions.maxRam("500M"));
    assertEquals("4k", ChartJvmOptions.maxRam("4096"));
    assertThrows(IllegalArgumentException.class, () -> ChartJvmOptions.maxRam("0.5Gi"));
  }

  @Test
  void theLastMaxRamOfTheOptionsIsTheLimit() {
    assertEquals(OptionalDouble.of(768), ChartJvmOptions.maxRamMiB(List.of("-XX:MaxRAM=1g", "-Xss512k", "-XX:MaxRAM=768m")));
    assertEquals(OptionalDouble.of(0.5), ChartJvmOptions.maxRamMiB(List.of("-XX:MaxRAM=512k")));
    assertEquals(OptionalDouble.empty(), ChartJvmOptions.maxRamMiB(List.of("-Xmx200m")));
    assertThrows(IllegalArgumentException.class, () -> ChartJvmOptions.maxRamMiB(List.of("-XX:MaxRAM=lots")));
  }

  @Test
  void theProjectChartHasAControllerLimit() throws Exception {
    String values = Files.readString(ProjectDirectory.root().resolve("charts/tidb-operator/values.yaml"));
    assertTrue(ChartJvmOptions.fromValues(values).get(0).startsWith("-XX:MaxRAM="));
  }
}
