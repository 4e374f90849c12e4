package io.tidb.operator.controller.runtime;

/** A step of a reconcile failed with a real error; names the step for logs and metrics. */
public final class StepFailedException extends Exception {

  private final String step;

  public StepFailedException(String step, Exception cause) {
    super("step " + step + " failed: " + cause.getMessage(), cause);
    this.step = step;
  }

  public String step() {
    return step;
  }
}
