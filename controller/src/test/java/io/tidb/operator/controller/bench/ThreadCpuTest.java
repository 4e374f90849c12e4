package io.tidb.operator.controller.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tidb.operator.testsupport.ProcFiles.ThreadTicks;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ThreadCpuTest {

  @Test
  void cpuIsSummedByThreadGroupLargestFirstAndNewThreadsCountFromZero() {
    ThreadCpu before = new ThreadCpu(Map.of(
        "1", new ThreadTicks("pool-3-thread-1", 100), "2", new ThreadTicks("C1 CompilerThre", 50)));
    ThreadCpu after = new ThreadCpu(Map.of(
        "1", new ThreadTicks("pool-3-thread-1", 150), "2", new ThreadTicks("C1 CompilerThre", 60),
        "3", new ThreadTicks("pool-3-thread-2", 30), "4", new ThreadTicks("idle", 0)));
    Map<String, Double> cpu = after.since(before);
    assertEquals(List.of("pool-N-thread-N", "CN CompilerThre"), List.copyOf(cpu.keySet()));
    assertEquals(0.8, cpu.get("pool-N-thread-N"), 1e-9);
    assertEquals(0.1, cpu.get("CN CompilerThre"), 1e-9);
  }
}
