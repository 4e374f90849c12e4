package io.tidb.operator.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * CPU time and memory of a running process, from Linux's {@code /proc/<pid>/stat} and {@code
 * status}, for the benchmarks (the controller's and the webhook's).
 */
public final class ProcFiles {

  /** USER_HZ: the unit of utime and stime in {@code /proc/<pid>/stat}. */
  public static final int CLOCK_TICKS_PER_SECOND = 100;

  private ProcFiles() {}

  /**
   * utime + stime (fields 14 and 15) of a {@code /proc/<pid>/stat} line, in clock ticks. The
   * command name (field 2, in parentheses) may hold spaces and parentheses, so fields are counted
   * from the last closing parenthesis.
   */
  public static long cpuTicks(String stat) {
    int end = stat.lastIndexOf(')');
    if (end < 0) {
      throw new IllegalArgumentException("not a /proc/<pid>/stat line (no \"(comm)\"): " + stat);
    }
    String[] fields = stat.substring(end + 1).trim().split("\\s+");
    // fields[0] is field 3 (state), so field k is fields[k - 3].
    if (fields.length < 13) {
      throw new IllegalArgumentException("a /proc/<pid>/stat line with " + (fields.length + 2)
          + " fields, expected at least 15: " + stat);
    }
    return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
  }

  /** A {@code kB} line of {@code /proc/<pid>/status}, e.g. {@code VmRSS} or {@code VmHWM}, in KiB. */
  public static long statusKiB(String status, String key) {
    for (String line : status.split("\n")) {
      if (line.startsWith(key + ":")) {
        return Long.parseLong(line.substring(key.length() + 1).replace("kB", "").trim());
      }
    }
    throw new IllegalArgumentException("no " + key + " line in /proc/<pid>/status");
  }

  /** User plus system CPU time of {@code pid} so far, in seconds. */
  public static double cpuSeconds(long pid) throws IOException {
    return cpuTicks(Files.readString(Path.of("/proc", Long.toString(pid), "stat")))
        / (double) CLOCK_TICKS_PER_SECOND;
  }

  /** {@code key} of {@code pid}'s {@code /proc/<pid>/status} in MiB. */
  public static double statusMiB(long pid, String key) throws IOException {
    return statusKiB(Files.readString(Path.of("/proc", Long.toString(pid), "status")), key) / 1024.0;
  }

  /** utime + stime of {@code pid} so far, in clock ticks ({@link #CLOCK_TICKS_PER_SECOND}). */
  public static long cpuTicks(long pid) throws IOException {
    return cpuTicks(Files.readString(Path.of("/proc", Long.toString(pid), "stat")));
  }

  /** One thread of a process: its name (at most 15 characters) and utime + stime in ticks. */
  public record ThreadTicks(String name, long ticks) {}

  /**
   * The threads of {@code pid} by thread id ({@code /proc/<pid>/task/<tid>/stat}); a thread that
   * ends while they are read is left out.
   */
  public static Map<String, ThreadTicks> threads(long pid) throws IOException {
    Map<String, ThreadTicks> threads = new HashMap<>();
    try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
      for (Path task : (Iterable<Path>) tasks::iterator) {
        String stat;
        try {
          stat = Files.readString(task.resolve("stat"));
        } catch (NoSuchFileException ended) {
          continue;
        }
        threads.put(task.getFileName().toString(), new ThreadTicks(
            stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')')), cpuTicks(stat)));
      }
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
    return threads;
  }

  /**
   * utime + stime, in clock ticks, of the threads of {@code pid} whose name (e.g. {@code "C2
   * CompilerThre"}) {@code threadName} accepts.
   */
  public static long threadTicks(long pid, Predicate<String> threadName) throws IOException {
    return threads(pid).values().stream().filter(t -> threadName.test(t.name()))
        .mapToLong(ThreadTicks::ticks).sum();
  }

  /** Whether a thread of that name is one of HotSpot's JIT compiler threads (C1's or C2's). */
  public static boolean isJitCompilerThread(String threadName) {
    return threadName.startsWith("C1 CompilerThre") || threadName.startsWith("C2 CompilerThre");
  }

  /** The resident set size of {@code pid} in KiB ({@code VmRSS}). */
  public static long rssKiB(long pid) throws IOException {
    return statusKiB(Files.readString(Path.of("/proc", Long.toString(pid), "status")), "VmRSS");
  }
}
