package io.tidb.operator.controller.runtime;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * The operator's own reconcile counters, next to JOSDK's: how each reconcile of a {@code
 * TidbCluster} ended, and which objects were applied. "Still converging" is not an error and is
 * counted apart from errors.
 */
public final class ReconcileMetrics {

  public static final String RECONCILES = "tidb.operator.reconciles";
  public static final String APPLIES = "tidb.operator.applies";

  private final MeterRegistry registry;

  public ReconcileMetrics(MeterRegistry registry) {
    this.registry = registry;
  }

  /**
   * A reconcile of {@code controller} ended with {@code result} (converged, converging, paused,
   * invalid or error) at {@code step}.
   */
  public void reconciled(String controller, String result, String step) {
    Counter.builder(RECONCILES)
        .description("Reconciles by controller and how they ended")
        .tag("controller", controller)
        .tag("result", result)
        .tag("step", step)
        .register(registry)
        .increment();
  }

  /** An object of {@code kind} was created, updated, or left unchanged because it matched. */
  public void applied(String kind, String outcome) {
    Counter.builder(APPLIES)
        .description("Objects the reconciler compared with the desired state, by outcome")
        .tag("kind", kind)
        .tag("outcome", outcome)
        .register(registry)
        .increment();
  }

  public MeterRegistry registry() {
    return registry;
  }
}
