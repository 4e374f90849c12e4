package io.tidb.operator.controller.tidbcluster.pipeline;

import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import java.util.Optional;

/**
 * One component's part of a reconcile, run in pipeline order (discovery, PD, TiKV, TiDB; TiFlash,
 * TiCDC, TiProxy and Pump slot in as further steps). The pipeline calls, for each enabled step:
 *
 * <ol>
 *   <li>{@link #waitingFor}: an unmet prerequisite stops the pipeline as still converging;
 *   <li>{@link #observe}: read the component's truth (caches, PD, TiDB) into the new status; this
 *       runs even when the cluster is paused;
 *   <li>{@link #apply}: create or update the component's objects; skipped when paused.
 * </ol>
 */
public interface ComponentStep {

  /** Short name for logs and metrics, e.g. {@code tikv}. */
  String name();

  /** Whether the cluster's spec asks for this component. */
  boolean enabled(TidbCluster cluster);

  /** What the component still waits for before it can be observed and applied; empty when ready. */
  default Optional<String> waitingFor(ClusterContext ctx) {
    return Optional.empty();
  }

  /** Records the component's observed state in {@link ClusterContext#status()}. */
  void observe(ClusterContext ctx) throws Exception;

  /** Brings the component's objects to the desired state. Never called while paused. */
  StepResult apply(ClusterContext ctx) throws Exception;

  /**
   * Called instead of the above when an earlier step stopped the run, or when this step's own
   * prerequisite is unmet: record what the cluster's {@code Ready} condition needs to know about
   * this component, from caches only.
   */
  default void notReached(ClusterContext ctx) {}
}
