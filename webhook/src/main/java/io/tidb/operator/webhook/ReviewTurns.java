package io.tidb.operator.webhook;

import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Bounds the reviews parsed and judged at once. Parsing is what multiplies a body's size in
 * memory (a JSON tree, then the model), so this bound, with the in-flight body bytes and the
 * per-body token limit, bounds the heap whatever arrives. A review waits for its turn in arrival
 * order, up to a limit.
 */
final class ReviewTurns {

  private final int size;
  private final Semaphore turns;
  private final long waitNanos;

  ReviewTurns(int size, Duration wait) {
    this.size = size;
    this.turns = new Semaphore(size, true);
    this.waitNanos = wait.toNanos();
  }

  /** Waits for a turn; false when none came in time. */
  boolean enter() throws InterruptedException {
    return turns.tryAcquire(waitNanos, TimeUnit.NANOSECONDS);
  }

  void leave() {
    turns.release();
  }

  int size() {
    return size;
  }
}
