package io.tidb.operator.controller.tidbcluster.member;

/**
 * What one reconcile does about a component's scale-in, scale-out or upgrade: at most one step,
 * decided from what is observed now (never from memory), so an operator killed at any instant
 * resumes from the cluster's state.
 */
public sealed interface MemberDecision {

  /** Nothing is in progress. */
  record Idle() implements MemberDecision {}

  /** Nothing to do now; the operation waits for {@code message}. */
  record Wait(String message) implements MemberDecision {}

  /**
   * The operation is refused until the cluster or the spec changes: a Warning Event ({@code
   * reason}) the first time, and the condition says why.
   */
  record Blocked(String reason, String message) implements MemberDecision {}

  /** Carry out one action (a PD call, a volume change); {@code message} says what it does. */
  record Act(MemberAction action, String message) implements MemberDecision {}

  /**
   * Set the StatefulSet's replicas to {@code replicas}: up for a scale-out, down once the removed
   * members have left the cluster (their volumes are kept, marked for deferred deletion).
   */
  record Resize(int replicas, String message) implements MemberDecision {}

  /** Lower the RollingUpdate partition to {@code partition}, so that pod is replaced next. */
  record Roll(int partition, String message) implements MemberDecision {}

  MemberDecision IDLE = new Idle();

  static MemberDecision waitFor(String message) {
    return new Wait(message);
  }

  /** The status line of this decision; empty for {@link Idle} (the records override it). */
  default String message() {
    return "";
  }
}
