package io.tidb.operator.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class AwaitTest {

  @Test
  void returnsTheFirstValueThatSatisfiesTheCondition() {
    AtomicInteger calls = new AtomicInteger();

    int value = Await.until("third call", Duration.ofSeconds(30), calls::incrementAndGet, n -> n >= 3);

    assertEquals(3, value);
    assertEquals(3, calls.get());
  }

  @Test
  void probeExceptionsCountAsNotYet() {
    AtomicInteger calls = new AtomicInteger();

    String value = Await.until("recovery", Duration.ofSeconds(30), () -> {
      if (calls.incrementAndGet() < 2) {
        throw new IllegalStateException("server not up");
      }
      return "up";
    }, "up"::equals);

    assertEquals("up", value);
  }

  @Test
  void timeoutNamesWhatWasAwaitedAndTheLastValue() {
    AssertionError e = assertThrows(AssertionError.class,
        () -> Await.until("replicas ready", Duration.ZERO, () -> "readyReplicas=1", v -> false));

    assertEquals("timed out after 0s waiting for replicas ready; last value: readyReplicas=1", e.getMessage());
  }

  @Test
  void timeoutAfterAFailingProbeCarriesTheFailure() {
    IllegalStateException cause = new IllegalStateException("connection refused");

    AssertionError e = assertThrows(AssertionError.class, () -> Await.until("api", Duration.ZERO, () -> {
      throw cause;
    }, v -> true));

    assertSame(cause, e.getCause());
    assertTrue(e.getMessage().endsWith("last attempt failed: java.lang.IllegalStateException: connection refused"));
  }
}
