package io.tidb.operator.webhook;

import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Bounds the reviews parsed and judged at once. Parsing is what multiplies a body's size in
 * memory (a JSON tree, then the model), so this bound, with the in-flight body bytes and the
 * per-body token limit, bounds the heap whatever arrives. A review waits for its turn up to a
 * limit.
 *
 * <p>The semaphore is not fair: a review that asks while a turn is free takes it even when others
 * are waiting. A fair hand-over keeps a released turn for the parked thread at the head of the
 * queue until the scheduler runs it, and the thread that released it parks at its next review; at
 * 64 connections on 2 cores barging cost 0.18 against 0.21-0.24 ms of server CPU per validate and
 * answered a quarter more reviews a second (docs/benchmarks-webhook.md). Waiting reviews still
 * take turns in their order among themselves, each within the limit.
 */
final class ReviewTurns {

  private final int size;
  private final Semaphore turns;
  private final long waitNanos;

  ReviewTurns(int size, Duration wait) {
    this.size = size;
    this.turns = new Semaphore(size, false);
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
