package io.tidb.operator.controller.runtime;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * How a controller's work of one reconcile ended.
 *
 * @param result {@code converged}, {@code converging} or {@code paused}: the metrics' result tag
 * @param step the step that ended the work, or {@code all} when every step ran
 * @param waitingFor when converging, what the resource waits for, in plain words
 * @param recheckAfter when converged but something outside the cluster's objects has to be read
 *     again later (a log backup's checkpoint in PD), how soon: a periodic requeue, distinct from
 *     the converging one
 */
public record WorkOutcome(String result, String step, Optional<String> waitingFor, Optional<Duration> recheckAfter) {

  public static final String CONVERGED = "converged";
  public static final String CONVERGING = "converging";
  public static final String PAUSED = "paused";

  public WorkOutcome {
    Objects.requireNonNull(waitingFor, "waitingFor");
    Objects.requireNonNull(recheckAfter, "recheckAfter");
  }

  public static WorkOutcome converged() {
    return new WorkOutcome(CONVERGED, "all", Optional.empty(), Optional.empty());
  }

  /**
   * Converged, and to be reconciled again after {@code after} (not as an error, and not at the
   * converging pace) because {@code step} reads state that changes without any event.
   */
  public static WorkOutcome convergedRecheckAfter(String step, Duration after) {
    if (after.isNegative() || after.isZero()) {
      throw new IllegalArgumentException("recheckAfter: Invalid value: \"" + after + "\": must be positive");
    }
    return new WorkOutcome(CONVERGED, step, Optional.empty(), Optional.of(after));
  }

  public static WorkOutcome paused() {
    return new WorkOutcome(PAUSED, "all", Optional.empty(), Optional.empty());
  }

  public static WorkOutcome converging(String step, String waitingFor) {
    return new WorkOutcome(CONVERGING, step, Optional.of(waitingFor), Optional.empty());
  }

  /** Whether the reconcile should run again soon (not as an error: no backoff). */
  public boolean converging() {
    return CONVERGING.equals(result);
  }

  /**
   * When the framework should reconcile again, if at all: the converging requeue while
   * converging, else the periodic recheck the work asked for. Pure.
   */
  public Optional<Duration> requeueAfter(Duration convergingRequeue) {
    return converging() ? Optional.of(convergingRequeue) : recheckAfter;
  }
}
