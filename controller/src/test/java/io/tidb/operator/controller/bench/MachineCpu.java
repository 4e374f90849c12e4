package io.tidb.operator.controller.bench;

import io.tidb.operator.testsupport.ProcFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The machine's CPU time ({@code /proc/stat}'s {@code cpu} line) and that of named processes
 * (the control plane's components, the controller, this program) at one moment. Two snapshots
 * tell how busy the cores were between them and who kept them busy: on a machine whose cores are
 * all busy, the time to converge is set by the CPU everyone spends, not by anyone's waits.
 *
 * @param busyTicks the machine's busy time over all cores (everything but idle and iowait)
 * @param totalTicks the machine's time over all cores
 * @param processTicks utime + stime of each named process; a process that is gone counts 0
 */
record MachineCpu(long busyTicks, long totalTicks, Map<String, Long> processTicks) {

  /** A snapshot of the machine and of {@code processes} (name to pid), in their order. */
  static MachineCpu of(Map<String, Long> processes) throws IOException {
    long[] machine = machineTicks(Files.readString(Path.of("/proc/stat")));
    Map<String, Long> ticks = new LinkedHashMap<>();
    for (Map.Entry<String, Long> p : processes.entrySet()) {
      long t;
      try {
        t = ProcFiles.cpuTicks(p.getValue());
      } catch (NoSuchFileException gone) {
        t = 0;
      }
      ticks.put(p.getKey(), t);
    }
    return new MachineCpu(machine[0], machine[1], ticks);
  }

  /**
   * Busy and total ticks of {@code /proc/stat}'s first line ({@code cpu user nice system idle
   * iowait irq softirq steal ...}): busy is everything but idle (4th) and iowait (5th).
   */
  static long[] machineTicks(String procStat) {
    String first = procStat.lines().findFirst().orElse("");
    String[] fields = first.trim().split("\\s+");
    if (!fields[0].equals("cpu") || fields.length < 6) {
      throw new IllegalArgumentException("not /proc/stat (its first line is not \"cpu ...\"): " + first);
    }
    long total = 0;
    // guest and guest_nice (9th and 10th) are already counted in user and nice.
    for (int i = 1; i < Math.min(fields.length, 9); i++) {
      total += Long.parseLong(fields[i]);
    }
    long idle = Long.parseLong(fields[4]) + Long.parseLong(fields[5]);
    return new long[] {total - idle, total};
  }

  /** What was spent from {@code before} to this snapshot. */
  Use since(MachineCpu before) {
    long total = totalTicks - before.totalTicks();
    double busyShare = total <= 0 ? 0 : (busyTicks - before.busyTicks()) / (double) total;
    Map<String, Double> seconds = new LinkedHashMap<>();
    processTicks.entrySet().stream()
        .map(e -> Map.entry(e.getKey(), e.getValue() - before.processTicks().getOrDefault(e.getKey(), 0L)))
        .filter(e -> e.getValue() > 0)
        .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
        .forEach(e -> seconds.put(e.getKey(), e.getValue() / (double) ProcFiles.CLOCK_TICKS_PER_SECOND));
    return new Use(busyShare, (busyTicks - before.busyTicks()) / (double) ProcFiles.CLOCK_TICKS_PER_SECOND,
        seconds);
  }

  /**
   * CPU spent between two snapshots.
   *
   * @param busyShare the share of the machine's cores that were busy (0 to 1)
   * @param busySeconds the machine's busy time over all cores
   * @param secondsByProcess CPU seconds of each named process, largest first
   */
  record Use(double busyShare, double busySeconds, Map<String, Double> secondsByProcess) {

    /**
     * {@code process}'s CPU seconds per CPU second of {@code reference}, or NaN when {@code
     * reference} spent none. A machine that runs slower or faster for a while moves every
     * process's CPU alike, so this ratio varies less between runs than either figure.
     */
    double ratio(String process, String reference) {
      double r = secondsByProcess.getOrDefault(reference, 0.0);
      return r == 0 ? Double.NaN : secondsByProcess.getOrDefault(process, 0.0) / r;
    }

    /**
     * E.g. {@code 1.85 of 2 cores busy; by process: kube-apiserver 26.1 s, controller 10.3 s, ...,
     * everything else 0.4 s}: what no named process spent (another program, the kernel's own
     * threads) shows a run that something else disturbed.
     */
    String describe(int cores) {
      double named = secondsByProcess.values().stream().mapToDouble(Double::doubleValue).sum();
      return String.format(Locale.ROOT, "%.2f of %d cores busy; by process: %s, everything else %.1f s",
          busyShare * cores, cores,
          secondsByProcess.entrySet().stream()
              .map(e -> String.format(Locale.ROOT, "%s %.1f s", e.getKey(), e.getValue()))
              .collect(Collectors.joining(", ")),
          Math.max(0, busySeconds - named));
    }
  }
}
