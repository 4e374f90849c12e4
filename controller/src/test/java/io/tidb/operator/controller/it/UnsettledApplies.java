package io.tidb.operator.controller.it;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.tidb.operator.controller.runtime.ReconcileMetrics;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The applies whose API server answer still differed from the desired object ({@link
 * ReconcileMetrics#UNSETTLED_APPLIES}) in the operators a harness started: such an object would be
 * written at every reconcile. A harness registers each operator's metrics and calls {@link
 * #assertNone} last in its {@code close}, so every IT class fails on one.
 */
final class UnsettledApplies {

  private final List<MeterRegistry> registries = new ArrayList<>();

  /** Counts the unsettled applies of the operator that reports to {@code registry}. */
  <R extends MeterRegistry> R of(R registry) {
    synchronized (registries) {
      registries.add(registry);
    }
    return registry;
  }

  /** Unsettled applies by kind, over every registered operator. */
  Map<String, Double> byKind() {
    Map<String, Double> counts = new TreeMap<>();
    synchronized (registries) {
      for (MeterRegistry registry : registries) {
        for (Counter c : registry.find(ReconcileMetrics.UNSETTLED_APPLIES).counters()) {
          counts.merge(c.getId().getTag("kind"), c.count(), Double::sum);
        }
      }
    }
    return counts;
  }

  /** Fails when any registered operator applied an object that did not settle. */
  void assertNone() {
    Map<String, Double> counts = byKind();
    if (!counts.isEmpty()) {
      throw new AssertionError("applies whose result still differed from the desired object (the"
          + " operator log's \"apply did not settle\" warnings name the fields), by kind: " + counts);
    }
  }
}
