package io.tidb.operator.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

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
}
