package io.tidb.operator.controller.tidbcluster.member;

import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.tidb.operator.api.v1alpha1.cluster.ComponentSpec;
import io.tidb.operator.api.v1alpha1.cluster.SuspendAction;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterContext;
import io.tidb.operator.controller.tidbcluster.pipeline.Component;
import io.tidb.operator.controller.tidbcluster.pipeline.SuspendOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code suspendAction.suspendStatefulSet} (the component's, else the cluster's), as upstream's
 * suspender: a component to suspend gets phase {@code Suspend}, its StatefulSet is deleted (its
 * pods with it; volume claims, Services and ConfigMaps stay) and nothing else of it is synced; it
 * is suspended only after the components before it in upstream's order ({@link SuspendOrder})
 * that are to be suspended have lost their StatefulSets, and only from phase
 * {@code Normal} (not in the middle of a scale or an upgrade). Set back to {@code false}, the
 * component is synced again: its StatefulSet is created with the spec's replicas and its pods
 * start on the kept claims, in the pipeline's order (PD, TiKV, TiDB).
 */
public final class Suspension {

  /** Upstream's phase of a suspended component. */
  public static final String PHASE = "Suspend";

  /** Component condition type: {@code True} while suspended, {@code False} while it waits its turn. */
  public static final String CONDITION = "Suspended";

  /** Reason of the cluster's {@code Ready=False} and of the component condition. */
  public static final String SUSPENDED = "Suspended";

  public static final String WAITING = "WaitingToSuspend";

  /** Event reason when a suspended component's StatefulSet is deleted. */
  public static final String EVENT = "StatefulSetSuspended";

  private Suspension() {}

  /** What the component does about suspension this reconcile. */
  public sealed interface State {
    /** Not to be suspended: synced as usual. */
    record Running() implements State {}

    /** To be suspended, but not yet: synced as usual meanwhile. */
    record Waiting(String message) implements State {}

    /** Suspend: delete the StatefulSet. */
    record Delete(String message) implements State {}

    /** Suspended: nothing of the component is synced. */
    record Suspended(String message) implements State {}
  }

  public static final State RUNNING = new State.Running();

  /**
   * @param wanted the spec asks to suspend the component's StatefulSet
   * @param phase the component's phase as last recorded ({@code Normal}, {@code Scale}, {@code
   *     Upgrade}, {@code Suspend})
   * @param statefulSetExists the component's StatefulSet is in the cache
   * @param earlierRunning the components before this one in {@link SuspendOrder} that are to be
   *     suspended but still have a StatefulSet, by display name
   */
  public record Facts(
      String displayName,
      boolean wanted,
      String phase,
      boolean statefulSetExists,
      List<String> earlierRunning) {}

  public static State decide(Facts f) {
    if (!f.wanted()) {
      return RUNNING;
    }
    if (!PHASE.equals(f.phase())) {
      if (f.phase() != null && !ComponentPhase.NORMAL.value().equals(f.phase())) {
        return new State.Waiting(
            "suspension waits until " + f.displayName() + " is no longer in phase " + f.phase());
      }
      if (!f.earlierRunning().isEmpty()) {
        return new State.Waiting(
            "suspension waits for " + String.join(", ", f.earlierRunning())
                + " to be suspended first");
      }
    }
    if (f.statefulSetExists()) {
      return new State.Delete(
          "suspending (suspendAction.suspendStatefulSet): deleting the StatefulSet and its pods;"
              + " volume claims, Services and ConfigMaps are kept");
    }
    return new State.Suspended(
        "suspended (suspendAction.suspendStatefulSet): the StatefulSet is deleted, volume claims"
            + " are kept; set it to false to resume");
  }

  /** The component's suspend action: its own, else the cluster's. */
  public static boolean wanted(TidbCluster tc, ComponentSpec spec) {
    if (spec == null) {
      return false;
    }
    SuspendAction action =
        spec.getSuspendAction() != null ? spec.getSuspendAction() : tc.getSpec().getSuspendAction();
    return action != null && Boolean.TRUE.equals(action.getSuspendStatefulSet());
  }

  /** The state of {@code component} in this reconcile, from the spec, the phase and the cache. */
  public static State of(
      ClusterContext ctx, Component component, String displayName, ComponentSpec spec,
      String phase) {
    TidbCluster tc = ctx.cluster();
    if (!wanted(tc, spec)) {
      return RUNNING;
    }
    List<String> earlier = new ArrayList<>();
    for (SuspendOrder.Entry e : SuspendOrder.ORDER) {
      if (e.component().equals(component)) {
        break;
      }
      ComponentSpec other = e.spec().apply(tc.getSpec());
      boolean running = ctx.owned()
          .get(StatefulSet.class, e.component().nameIn(ctx.name()))
          .isPresent();
      if (other != null && wanted(tc, other) && running) {
        earlier.add(e.displayName());
      }
    }
    boolean exists =
        ctx.owned().get(StatefulSet.class, component.nameIn(ctx.name())).isPresent();
    return decide(new Facts(displayName, true, phase, exists, earlier));
  }

  /** The message of a state that holds the component (empty for running ones). */
  public static Optional<String> holding(State s) {
    return s instanceof State.Delete d ? Optional.of(d.message())
        : s instanceof State.Suspended d ? Optional.of(d.message())
        : Optional.empty();
  }
}
