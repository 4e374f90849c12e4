package io.tidb.operator.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class DenialLogTest {

  @Test
  void aBurstIsLoggedThenTheRestIsCountedAndReportedWithTheNextLine() {
    AtomicLong now = new AtomicLong();
    DenialLog log = new DenialLog(5, 3, now::get);
    assertEquals(0, log.admit());
    assertEquals(0, log.admit());
    assertEquals(0, log.admit());
    for (int i = 0; i < 100; i++) {
      assertEquals(-1, log.admit());
    }
    now.addAndGet(200_000_000L); // 0.2 s at 5/s: one more line
    assertEquals(100, log.admit());
    assertEquals(-1, log.admit());
    now.addAndGet(60_000_000_000L);
    assertEquals(1, log.admit());
    assertEquals(0, log.admit());
  }
}
