package io.tidb.operator.testsupport;

import java.time.Duration;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Polls until a condition holds. A timeout fails with what was awaited and the last value seen, so a
 * failing test says where it stuck. Exceptions from the probe count as "not yet" (the API server may be
 * momentarily unavailable); the last one is attached to the failure.
 */
public final class Await {

  static final Duration POLL_INTERVAL = Duration.ofMillis(250);

  private Await() {
  }

  /**
   * Returns the first value of {@code probe} that satisfies {@code done}.
   *
   * @param what a description for the failure message, e.g. "StatefulSet ns/web ready"
   * @throws AssertionError if {@code timeout} passes first
   */
  public static <T> T until(String what, Duration timeout, Supplier<T> probe, Predicate<? super T> done) {
    long deadline = System.nanoTime() + timeout.toNanos();
    T last = null;
    RuntimeException lastError = null;
    while (true) {
      try {
        last = probe.get();
        lastError = null;
        if (done.test(last)) {
          return last;
        }
      } catch (RuntimeException e) {
        lastError = e;
      }
      if (System.nanoTime() - deadline >= 0) {
        AssertionError failure = new AssertionError(timeoutMessage(what, timeout, last, lastError));
        if (lastError != null) {
          failure.initCause(lastError);
        }
        throw failure;
      }
      sleep();
    }
  }

  static String timeoutMessage(String what, Duration timeout, Object last, RuntimeException lastError) {
    String seen = lastError != null ? "last attempt failed: " + lastError : "last value: " + last;
    return "timed out after " + timeout.toSeconds() + "s waiting for " + what + "; " + seen;
  }

  private static void sleep() {
    try {
      Thread.sleep(POLL_INTERVAL.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting", e);
    }
  }
}
