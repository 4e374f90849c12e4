package io.tidb.operator.controller.runtime;

import io.javaoperatorsdk.operator.processing.event.rate.RateLimiter;
import java.time.Duration;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * At most one reconcile of a resource per {@code spacing}: an event that arrives sooner waits for
 * the rest of it, and every event that arrives meanwhile joins that one reconcile.
 *
 * <p>Why: a cluster coming up sends a burst of events (each pod created, scheduled, started and
 * Ready, each StatefulSet status, each claim bound), and a reconcile per event read PD, built
 * every desired object and wrote status for each intermediate state. Spaced, one reconcile sees
 * several of them at once: fewer reconciles, fewer status writes, and at most {@code spacing}
 * later than the event that started them. Unlike JOSDK's {@code LinearRateLimiter}, which answers
 * with the time since its period began rather than the time left, the wait here is exactly what
 * is left of the spacing.
 *
 * <p>JOSDK keeps one {@link LastStart} per resource and calls {@link #isLimited} under its event
 * processor's lock, before each reconcile it would start.
 */
public final class ReconcileSpacing implements RateLimiter<ReconcileSpacing.LastStart> {

  /** When the resource's last reconcile was let in, in {@link System#nanoTime()} terms. */
  public static final class LastStart implements RateLimitState {
    private boolean started;
    private long nanos;
  }

  private final long spacingNanos;
  private final LongSupplier nanoTime;

  /** Spacing measured on {@link System#nanoTime()}; {@link Duration#ZERO} lets every reconcile in. */
  public ReconcileSpacing(Duration spacing) {
    this(spacing, System::nanoTime);
  }

  ReconcileSpacing(Duration spacing, LongSupplier nanoTime) {
    if (spacing.isNegative()) {
      throw new IllegalArgumentException("spacing must not be negative: " + spacing);
    }
    this.spacingNanos = spacing.toNanos();
    this.nanoTime = nanoTime;
  }

  @Override
  public Optional<Duration> isLimited(RateLimitState state) {
    LastStart last = (LastStart) state;
    long now = nanoTime.getAsLong();
    Optional<Duration> wait = waitLeft(last.started, last.nanos, now, spacingNanos);
    if (wait.isEmpty()) {
      last.started = true;
      last.nanos = now;
    }
    return wait;
  }

  @Override
  public LastStart initState() {
    return new LastStart();
  }

  /**
   * How long a reconcile asked for at {@code now} must still wait, given the last one let in at
   * {@code lastNanos} (if any): empty when it may start now.
   */
  static Optional<Duration> waitLeft(boolean started, long lastNanos, long now, long spacingNanos) {
    if (!started) {
      return Optional.empty();
    }
    long elapsed = now - lastNanos;
    if (elapsed >= spacingNanos) {
      return Optional.empty();
    }
    return Optional.of(Duration.ofNanos(spacingNanos - elapsed));
  }
}
