package io.tidb.operator.controller.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MachineCpuTest {

  @Test
  void busyIsEverythingButIdleAndIowaitAndGuestTimeIsNotCountedTwice() {
    // cpu user nice system idle iowait irq softirq steal guest guest_nice
    String stat = "cpu  1000 20 300 5000 100 7 13 0 400 0\ncpu0 500 10 150 2500 50 3 7 0 200 0\n";
    assertArrayEquals(new long[] {1000 + 20 + 300 + 7 + 13, 1000 + 20 + 300 + 5000 + 100 + 7 + 13},
        MachineCpu.machineTicks(stat));
  }

  @Test
  void aFileThatIsNotProcStatIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> MachineCpu.machineTicks("intr 1 2 3\n"));
  }

  @Test
  void useGivesTheBusyShareAndEachProcessSecondsLargestFirst() {
    Map<String, Long> before = new LinkedHashMap<>();
    before.put("etcd", 100L);
    before.put("kube-apiserver", 1000L);
    before.put("controller", 0L);
    Map<String, Long> after = new LinkedHashMap<>();
    after.put("etcd", 150L);
    after.put("kube-apiserver", 1300L);
    after.put("controller", 200L);
    MachineCpu.Use use = new MachineCpu(1700, 2500, after).since(new MachineCpu(1000, 1500, before));
    assertEquals(0.7, use.busyShare(), 1e-9);
    assertEquals(List.of("kube-apiserver", "controller", "etcd"), List.copyOf(use.secondsByProcess().keySet()));
    assertEquals(3.0, use.secondsByProcess().get("kube-apiserver"), 1e-9);
    assertEquals(7.0, use.busySeconds(), 1e-9);
    assertEquals(2.0 / 3.0, use.ratio("controller", "kube-apiserver"), 1e-9);
    assertEquals(Double.NaN, use.ratio("controller", "kwok"));
    assertEquals("1.40 of 2 cores busy; by process: kube-apiserver 3.0 s, controller 2.0 s, etcd 0.5 s,"
        + " everything else 1.5 s",
        use.describe(2));
  }
}
