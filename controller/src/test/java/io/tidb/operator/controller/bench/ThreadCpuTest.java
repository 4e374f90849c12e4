package io.tidb.operator.controller.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ThreadCpuTest {

  @Test
  void cpuIsSummedByThreadGroupLargestFirstAndNewThreadsCountFromZero() {
    ThreadCpu before = new ThreadCpu(
        Map.of("1", "pool-3-thread-1", "2", "C1 CompilerThre"), Map.of("1", 100L, "2", 50L));
    ThreadCpu after = new ThreadCpu(
        Map.of("1", "pool-3-thread-1", "2", "C1 CompilerThre", "3", "pool-3-thread-2", "4", "idle"),
        Map.of("1", 150L, "2", 60L, "3", 30L, "4", 0L));
    Map<String, Double> cpu = after.since(before);
    assertEquals(List.of("pool-N-thread-N", "CN CompilerThre"), List.copyOf(cpu.keySet()));
    assertEquals(0.8, cpu.get("pool-N-thread-N"), 1e-9);
    assertEquals(0.1, cpu.get("CN CompilerThre"), 1e-9);
  }
}
