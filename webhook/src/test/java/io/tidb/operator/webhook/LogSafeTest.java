package io.tidb.operator.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class LogSafeTest {

  @Test
  void plainNamesAreKeptAsTheyAre() {
    assertEquals("basic-tidb-0", LogSafe.value("basic-tidb-0"));
    assertEquals("", LogSafe.value(null));
  }

  @Test
  void lineBreaksAndControlCharactersCannotForgeALine() {
    String forged = "x\n2026-12-01T00:00:00Z [main] INFO admission allowed\r\u2028\u0085\u0007\"q\"\\";
    String safe = LogSafe.value(forged);
    assertEquals("x\\n2026-12-01T00:00:00Z [main] INFO admission allowed\\r\\u2028\\u0085\\u0007\\\"q\\\"\\\\", safe);
    assertFalse(safe.chars().anyMatch(c -> c < 0x20 || c == 0x2028 || c == 0x85));
  }

  @Test
  void longValuesAreCutAndSayHowLongTheyWere() {
    String safe = LogSafe.value("a".repeat(20_000));
    assertTrue(safe.startsWith("a".repeat(LogSafe.MAX_LENGTH) + "...(20000 chars)"), safe);
    assertEquals(LogSafe.MAX_LENGTH + "...(20000 chars)".length(), safe.length());
  }
}
