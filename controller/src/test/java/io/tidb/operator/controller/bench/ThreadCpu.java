package io.tidb.operator.controller.bench;

import io.tidb.operator.testsupport.ProcFiles;
import java.io.IOException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * CPU ticks of each thread of a process ({@code /proc/<pid>/task/<tid>/stat}), and the CPU seconds
 * spent between two snapshots by thread group: the thread's name with its digits replaced by
 * {@code N} ({@code pool-3-thread-2} and {@code pool-3-thread-5} are one group).
 */
record ThreadCpu(Map<String, String> names, Map<String, Long> ticks) {

  static ThreadCpu of(long pid) throws IOException {
    Map<String, String> names = new HashMap<>();
    Map<String, Long> ticks = new HashMap<>();
    ProcFiles.threads(pid).forEach((tid, thread) -> {
      names.put(tid, thread.name());
      ticks.put(tid, thread.ticks());
    });
    return new ThreadCpu(names, ticks);
  }

  /** Seconds of CPU by thread group from {@code before} to this snapshot, largest first. */
  Map<String, Double> since(ThreadCpu before) {
    Map<String, Long> byGroup = new HashMap<>();
    ticks.forEach((tid, t) -> byGroup.merge(group(names.get(tid)),
        t - before.ticks().getOrDefault(tid, 0L), Long::sum));
    Map<String, Double> sorted = new LinkedHashMap<>();
    byGroup.entrySet().stream()
        .filter(e -> e.getValue() > 0)
        .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
        .forEach(e -> sorted.put(e.getKey(), e.getValue() / (double) ProcFiles.CLOCK_TICKS_PER_SECOND));
    return sorted;
  }

  static String group(String threadName) {
    return threadName.replaceAll("\\d+", "N");
  }
}
