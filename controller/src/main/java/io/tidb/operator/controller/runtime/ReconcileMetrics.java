package io.tidb.operator.controller.runtime;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * The operator's own reconcile counters, next to JOSDK's: how each reconcile of a {@code
 * TidbCluster} ended, which objects were applied and which Events (one per operation step) were
 * recorded. "Still converging" is not an error and is
 * counted apart from errors.
 */
public final class ReconcileMetrics {

  public static final String RECONCILES = "tidb.operator.reconciles";
  public static final String APPLIES = "tidb.operator.applies";
  public static final String EVENTS = "tidb.operator.events";
  public static final String UNSETTLED_APPLIES = "tidb.operator.unsettled.applies";

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

  /**
   * An object of {@code kind} was applied and the API server's answer still differs from the
   * desired object in fields the operator sets, so every later reconcile would apply it again
   * (a zero value the API server omits, a value a mutating webhook rewrites).
   */
  public void unsettledApply(String kind) {
    Counter.builder(UNSETTLED_APPLIES)
        .description("Applies whose result still differed from the desired object, by kind")
        .tag("kind", kind)
        .register(registry)
        .increment();
  }

  /**
   * An Event was recorded about an object of {@code kind}. Every user-visible step of a scale-in
   * or upgrade (member deleted, store deleted, leader transferred, eviction begun or ended, pod
   * rolled, scaled in) has its own Event reason, so this counts each step.
   */
  public void event(String kind, String type, String reason) {
    Counter.builder(EVENTS)
        .description("Events the operator recorded, by involved kind, type and reason")
        .tag("kind", kind == null ? "" : kind)
        .tag("type", type)
        .tag("reason", reason)
        .register(registry)
        .increment();
  }

  public MeterRegistry registry() {
    return registry;
  }
}
