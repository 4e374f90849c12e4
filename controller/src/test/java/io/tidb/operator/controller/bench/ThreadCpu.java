package io.tidb.operator.controller.bench;

import io.tidb.operator.testsupport.ProcFiles;
import io.tidb.operator.testsupport.ProcFiles.ThreadTicks;
import java.io.IOException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * CPU ticks of each thread of a process ({@code /proc/<pid>/task/<tid>/stat}, by thread id), and
 * the CPU seconds spent between two snapshots by thread group: the thread's name with its digits
 * replaced by {@code N} ({@code pool-3-thread-2} and {@code pool-3-thread-5} are one group).
 */
record ThreadCpu(Map<String, ThreadTicks> threads) {

  static ThreadCpu of(long pid) throws IOException {
    return new ThreadCpu(ProcFiles.threads(pid));
  }

  /** Seconds of CPU by thread group from {@code before} to this snapshot, largest first. */
  Map<String, Double> since(ThreadCpu before) {
    Map<String, Long> byGroup = new HashMap<>();
    threads.forEach((tid, thread) -> {
      ThreadTicks then = before.threads().get(tid);
      byGroup.merge(group(thread.name()), thread.ticks() - (then == null ? 0 : then.ticks()), Long::sum);
    });
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
