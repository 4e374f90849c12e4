package io.tidb.operator.controller.runtime;

import java.util.Optional;

/**
 * How a controller's work of one reconcile ended.
 *
 * @param result {@code converged}, {@code converging} or {@code paused}: the metrics' result tag
 * @param step the step that ended the work, or {@code all} when every step ran
 * @param waitingFor when converging, what the resource waits for, in plain words
 */
public record WorkOutcome(String result, String step, Optional<String> waitingFor) {

  public static final String CONVERGED = "converged";
  public static final String CONVERGING = "converging";
  public static final String PAUSED = "paused";

  public static WorkOutcome converged() {
    return new WorkOutcome(CONVERGED, "all", Optional.empty());
  }

  public static WorkOutcome paused() {
    return new WorkOutcome(PAUSED, "all", Optional.empty());
  }

  public static WorkOutcome converging(String step, String waitingFor) {
    return new WorkOutcome(CONVERGING, step, Optional.of(waitingFor));
  }

  /** Whether the reconcile should run again soon (not as an error: no backoff). */
  public boolean converging() {
    return CONVERGING.equals(result);
  }
}
