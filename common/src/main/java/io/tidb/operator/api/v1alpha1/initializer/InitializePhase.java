package io.tidb.operator.api.v1alpha1.initializer;

/** Upstream's {@code status.phase} values of a TidbInitializer. */
public enum InitializePhase {
  /** Waiting for the cluster (or its TiDB) to be up; no Job yet. */
  PENDING("Pending"),
  /** The Job runs. */
  RUNNING("Running"),
  /** The cluster is initialised; the initializer never runs again. */
  COMPLETED("Completed"),
  /** The Job failed; needs the user (see the Initialized condition). */
  FAILED("Failed");

  private final String value;

  InitializePhase(String value) {
    this.value = value;
  }

  public String value() {
    return value;
  }

  public boolean is(String phase) {
    return value.equals(phase);
  }
}
