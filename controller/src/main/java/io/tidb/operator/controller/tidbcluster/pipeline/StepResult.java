package io.tidb.operator.controller.tidbcluster.pipeline;

/**
 * How one step of the pipeline ended: either the pipeline goes on, or it stops because the cluster
 * is still converging (a prerequisite is not met yet). "Still converging" is not an error: the
 * reconcile is rescheduled, not retried with backoff.
 */
public sealed interface StepResult {

  /** The step is done; the next one may run. */
  record Continue() implements StepResult {}

  /**
   * The pipeline stops here for now.
   *
   * @param reason what the cluster is waiting for, in plain words (logged and counted)
   */
  record Converging(String reason) implements StepResult {}

  StepResult CONTINUE = new Continue();

  static StepResult converging(String reason) {
    return new Converging(reason);
  }
}
