package io.tidb.operator.controller.tidbcluster.pipeline;

/**
 * How one step of the pipeline ended: the pipeline goes on, goes on with an operation in progress,
 * or stops because the cluster is still converging (a prerequisite is not met yet). "Still converging" is not an error: the
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

  /**
   * The step started or continues an operation that takes several reconciles (a scale-in, an
   * upgrade): later steps still run (they observe, and they hold their own operations while this
   * one is busy), and the reconcile is rescheduled soon.
   *
   * @param reason what the operation is doing or waiting for
   */
  record InProgress(String reason) implements StepResult {}

  StepResult CONTINUE = new Continue();

  static StepResult converging(String reason) {
    return new Converging(reason);
  }

  static StepResult inProgress(String reason) {
    return new InProgress(reason);
  }
}
