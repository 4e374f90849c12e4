package io.tidb.operator.controller.runtime;

import java.time.Duration;

/**
 * Lets a controller's reconciles in until the process stops, then refuses new ones and lets the
 * stop wait for those already running.
 *
 * <p>Why: JOSDK's stop closes the informers before the reconcile threads finish. A reconcile
 * still running then reads owned objects from stopped caches, finds them missing and applies them
 * again, or decides from a cluster it no longer sees. Closing the gate first, and waiting for it to
 * drain while the caches still run, means every reconcile either completes on live caches or does
 * not start.
 */
public final class ReconcileGate {

  private boolean closed;
  private int running;

  /** Whether a reconcile may run; when it may, it must call {@link #exit()} when it ends. */
  public synchronized boolean enter() {
    if (closed) {
      return false;
    }
    running++;
    return true;
  }

  /** A reconcile {@link #enter()} let in has ended. */
  public synchronized void exit() {
    if (running == 0) {
      throw new IllegalStateException("exit without enter");
    }
    running--;
    if (running == 0) {
      notifyAll();
    }
  }

  /** Refuses every reconcile from now on; those running go on. */
  public synchronized void close() {
    closed = true;
  }

  /**
   * Waits until no reconcile runs or {@code timeout} has passed, and returns how many still run
   * (0 when drained).
   */
  public synchronized int awaitDrained(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (running > 0) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        break;
      }
      long millis = Math.max(1, left / 1_000_000);
      wait(millis);
    }
    return running;
  }
}
