package io.tidb.operator.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class ProcFilesTest {

  @Test
  void cpuTicksAddUserAndSystemTimeCountingFieldsAfterTheCommandName() {
    // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime cutime ...
    String stat = "4242 (java (main) x) S 1 4242 4242 0 -1 4194560 9000 0 12 0 1234 567 7 8 20 0 30 0";
    assertEquals(1234 + 567, ProcFiles.cpuTicks(stat));
  }

  @Test
  void aLineWithoutCommandNameIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> ProcFiles.cpuTicks("4242 S 1 2 3"));
  }

  @Test
  void statusLinesAreReadInKib() {
    String status = "Name:\tjava\nVmHWM:\t  412340 kB\nVmRSS:\t  398004 kB\nThreads:\t41\n";
    assertEquals(398004, ProcFiles.statusKiB(status, "VmRSS"));
    assertEquals(412340, ProcFiles.statusKiB(status, "VmHWM"));
    assertThrows(IllegalArgumentException.class, () -> ProcFiles.statusKiB(status, "VmSwap"));
  }

  @Test
  void threadTicksCountOnlyTheNamedThreads() throws Exception {
    long pid = ProcessHandle.current().pid();
    CountDownLatch burnt = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Thread burner = new Thread(() -> {
      long until = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() + 300_000_000L;
      while (ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() < until) {
        Thread.onSpinWait();
      }
      burnt.countDown();
      try {
        release.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "pf-burner");
    burner.start();
    try {
      burnt.await();
      long burnerTicks = ProcFiles.threadTicks(pid, "pf-burner"::equals);
      assertTrue(burnerTicks >= 20, "300 ms of CPU in the named thread, " + burnerTicks + " ticks read");
      assertEquals(0, ProcFiles.threadTicks(pid, "no-such-thread"::equals));
      assertTrue(ProcFiles.threadTicks(pid, name -> true) >= burnerTicks);
    } finally {
      release.countDown();
      burner.join();
    }
  }

  @Test
  void compilerThreadsAreRecognisedByHotSpotsNames() {
    assertTrue(ProcFiles.isJitCompilerThread("C2 CompilerThre"));
    assertTrue(ProcFiles.isJitCompilerThread("C1 CompilerThre"));
    assertFalse(ProcFiles.isJitCompilerThread("qtp12345-17"));
  }
}
