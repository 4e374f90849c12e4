package io.tidb.operator.testsupport;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Memory figures of a running process, read from Linux's {@code /proc}, for benchmarks. */
public final class ProcessMemory {

  private ProcessMemory() {}

  /** The resident set size of {@code pid} in KiB ({@code VmRSS} of {@code /proc/<pid>/status}). */
  public static long rssKiB(long pid) throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
      if (line.startsWith("VmRSS:")) {
        return Long.parseLong(line.replaceAll("[^0-9]", ""));
      }
    }
    throw new IllegalStateException("no VmRSS for pid " + pid);
  }
}
