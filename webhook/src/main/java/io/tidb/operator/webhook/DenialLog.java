package io.tidb.operator.webhook;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Decides which refusals are logged at INFO: at most {@code perSecond} a second, with bursts up to
 * {@code burst}, so a client that sends bad reviews in a loop cannot flood the log. The others are
 * counted and the count is reported with the next line that is logged (metrics count every one).
 */
final class DenialLog {

  private final double perNano;
  private final double burst;
  private final LongSupplier nanoClock;
  private double tokens;
  private long last;
  private final AtomicLong suppressed = new AtomicLong();

  DenialLog(double perSecond, int burst, LongSupplier nanoClock) {
    this.perNano = perSecond / 1e9;
    this.burst = burst;
    this.nanoClock = nanoClock;
    this.tokens = burst;
    this.last = nanoClock.getAsLong();
  }

  static DenialLog standard() {
    return new DenialLog(5, 20, System::nanoTime);
  }

  /**
   * Whether to log this refusal now; -1 if not, else how many refusals were left unlogged since
   * the last line that was.
   */
  synchronized long admit() {
    long now = nanoClock.getAsLong();
    tokens = Math.min(burst, tokens + (now - last) * perNano);
    last = now;
    if (tokens < 1) {
      suppressed.incrementAndGet();
      return -1;
    }
    tokens -= 1;
    return suppressed.getAndSet(0);
  }
}
