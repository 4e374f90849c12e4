package io.tidb.operator.controller.tidbcluster.member;

/**
 * The two StatefulSet numbers the operator decides rather than reads from the spec.
 *
 * @param replicas pods the StatefulSet should run: the spec's replicas plus failover replacements,
 *     or the step a scale operation has reached
 * @param partition the RollingUpdate partition: pods with an ordinal at or above it get the new
 *     template. Set it to {@code replicas} to hold every pod at its current revision and lower it one
 *     ordinal at a time to roll; 0 updates all. Ignored when the component uses {@code OnDelete}.
 */
public record StatefulSetPlan(int replicas, int partition) {
  public StatefulSetPlan {
    if (replicas < 0) {
      throw new IllegalArgumentException("replicas must be >= 0, got " + replicas);
    }
    if (partition < 0) {
      throw new IllegalArgumentException("partition must be >= 0, got " + partition);
    }
  }

  /** A plan that holds all {@code replicas} pods at their current revision. */
  public static StatefulSetPlan holding(int replicas) {
    return new StatefulSetPlan(replicas, replicas);
  }
}
