package io.tidb.operator.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ServerLimitsTest {

  @Test
  void bodiesInFlightAreAnEighthOfTheHeapCappedAndNeverLessThanOneBody() {
    assertEquals(32L << 20, ServerLimits.defaultInFlightBytes(4 << 20, 256L << 20));
    assertEquals(64L << 20, ServerLimits.defaultInFlightBytes(4 << 20, 4L << 30));
    assertEquals(4L << 20, ServerLimits.defaultInFlightBytes(4 << 20, 16L << 20));
  }

  @Test
  void limitsThatCannotWorkAreRefused() {
    ServerLimits d = ServerLimits.defaults(1 << 20);
    assertThrows(IllegalArgumentException.class, () -> new ServerLimits(1 << 20, 1000, 2, Duration.ofSeconds(1),
        d.maxTokens(), d.maxNestingDepth(), d.idleTimeout(), d.minBytesPerSecond(), d.bodyDeadline(), d.acceptQueueSize(), d.maxConnections(), 32));
    assertThrows(IllegalArgumentException.class, () -> new ServerLimits(1 << 20, 8 << 20, 0, Duration.ofSeconds(1),
        d.maxTokens(), d.maxNestingDepth(), d.idleTimeout(), d.minBytesPerSecond(), d.bodyDeadline(), d.acceptQueueSize(), d.maxConnections(), 32));
    assertThrows(IllegalArgumentException.class, () -> new ServerLimits(1 << 20, 8 << 20, 2, Duration.ofSeconds(1),
        d.maxTokens(), d.maxNestingDepth(), d.idleTimeout(), d.minBytesPerSecond(), d.bodyDeadline(), d.acceptQueueSize(), d.maxConnections(), 4));
    IllegalArgumentException same = assertThrows(IllegalArgumentException.class, () -> new ServerLimits(1 << 20,
        8 << 20, 2, Duration.ofSeconds(1), d.maxTokens(), d.maxNestingDepth(), Duration.ofSeconds(5),
        d.minBytesPerSecond(), Duration.ofSeconds(5), d.acceptQueueSize(), d.maxConnections(), 32));
    assertEquals("bodyDeadline 5000 ms must differ from idleTimeout 5000 ms", same.getMessage());
  }

  @Test
  void theDefaultThreadsAreFourACoreAndNeverFewerThanTheServerTakes() {
    assertEquals(8, ServerLimits.defaultMaxThreads(1));
    assertEquals(8, ServerLimits.defaultMaxThreads(2));
    assertEquals(32, ServerLimits.defaultMaxThreads(8));
  }

  @Test
  void theDefaultBodyDeadlineComesBeforeTheIdleTimeout() {
    ServerLimits d = ServerLimits.defaults(1 << 20);
    assertTrue(d.bodyDeadline().compareTo(d.idleTimeout()) < 0, d.toString());
  }
}
