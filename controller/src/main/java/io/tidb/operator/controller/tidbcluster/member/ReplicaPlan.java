package io.tidb.operator.controller.tidbcluster.member;

import java.util.Optional;

/**
 * How many replicas a component's StatefulSet gets this reconcile, decided from the spec and the
 * StatefulSet as it is.
 *
 * <ul>
 *   <li>No StatefulSet yet: create it with the spec's replicas.
 *   <li>Spec above the StatefulSet: scale out, at most {@code maxStep} replicas per reconcile.
 *   <li>Spec below the StatefulSet: the replicas stay here; the component's scale-in rule lowers
 *       them once each removed member has left the cluster.
 * </ul>
 *
 * @param target the replicas to apply now
 * @param current the StatefulSet's replicas before this reconcile; empty when it does not exist
 * @param wanted the spec's replicas
 */
public record ReplicaPlan(int target, Optional<Integer> current, int wanted) {

  /** What this reconcile does to the replica count. */
  public enum Change {
    CREATE,
    NONE,
    SCALE_OUT,
    SCALE_IN
  }

  public static ReplicaPlan decide(int wanted, Optional<Integer> current, int maxStep) {
    if (current.isEmpty()) {
      return new ReplicaPlan(wanted, current, wanted);
    }
    int now = current.get();
    if (wanted > now) {
      return new ReplicaPlan((int) Math.min(wanted, (long) now + Math.max(1, maxStep)), current, wanted);
    }
    return new ReplicaPlan(now, current, wanted);
  }

  public Change change() {
    if (current.isEmpty()) {
      return Change.CREATE;
    }
    if (wanted > current.get()) {
      return Change.SCALE_OUT;
    }
    if (wanted < current.get()) {
      return Change.SCALE_IN;
    }
    return Change.NONE;
  }

  /** The replica count the component is heading for: the spec's. Phases and Ready measure it. */
  public int destination() {
    return wanted;
  }
}
