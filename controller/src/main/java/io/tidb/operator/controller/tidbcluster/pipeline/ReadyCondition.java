package io.tidb.operator.controller.tidbcluster.pipeline;

import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.tidb.operator.api.v1alpha1.cluster.TidbClusterStatus;
import io.tidb.operator.controller.runtime.Conditions;
import java.util.List;
import java.util.Optional;

/**
 * Folds the cluster's {@code Ready} condition from per-component verdicts, the way upstream
 * decides it: true only when every component's StatefulSet is up to date and every component
 * reports itself healthy with the desired number of members; otherwise false with the first
 * failing reason, StatefulSets first, then components in pipeline order. Knows no component: each
 * brings its own {@link ReadinessCheck}.
 */
public final class ReadyCondition {

  public static final String TYPE = "Ready";

  /** Reason spellings are upstream's, including its typo in {@code StatfulSetNotUpToDate}. */
  public static final String STATEFULSET_NOT_UP_TO_DATE = "StatfulSetNotUpToDate";

  public static final String READY = "Ready";

  private ReadyCondition() {}

  /**
   * A component's own health verdict, evaluated on the status the whole reconcile built.
   */
  @FunctionalInterface
  public interface ReadinessCheck {
    /** Why the component is not ready (reason and message), or empty when it is. */
    Optional<Verdict> notReady(TidbClusterStatus status, int desiredReplicas);
  }

  /** What a component's readiness decides on: the status built and its desired member count. */
  @FunctionalInterface
  public interface ReadyWhen {
    boolean test(TidbClusterStatus status, int desiredReplicas);
  }

  /** A check that fails with {@code reason} and {@code message} unless {@code ready} holds. */
  public static ReadinessCheck requiring(ReadyWhen ready, String reason, String message) {
    return (status, desired) ->
        ready.test(status, desired)
            ? Optional.empty()
            : Optional.of(Verdict.notReady(reason, message));
  }

  /**
   * One component the cluster's spec asks for.
   *
   * @param desiredReplicas how many members it should have (what the operator applied)
   * @param statefulSetUpToDate whether its StatefulSet exists and has rolled out its current
   *     revision
   */
  public record Observed(
      Component component,
      int desiredReplicas,
      boolean statefulSetUpToDate,
      ReadinessCheck readiness,
      Optional<Activity> activity) {

    public Observed(
        Component component,
        int desiredReplicas,
        boolean statefulSetUpToDate,
        ReadinessCheck readiness) {
      this(component, desiredReplicas, statefulSetUpToDate, readiness, Optional.empty());
    }

    public Observed withActivity(Activity a) {
      return new Observed(component, desiredReplicas, statefulSetUpToDate, readiness, Optional.of(a));
    }
  }

  /** The evaluated condition: status {@code True}/{@code False}, reason and message. */
  public record Verdict(String status, String reason, String message) {
    public boolean ready() {
      return Conditions.TRUE.equals(status);
    }

    public static Verdict notReady(String reason, String message) {
      return new Verdict(Conditions.FALSE, reason, message);
    }
  }

  /**
   * The verdict: a component being scaled or upgraded explains itself first (the first in
   * pipeline order, e.g. {@code Upgrading} "tikv: upgrading basic-tikv-2 (1 of 3 done), ..."),
   * then upstream's checks.
   */
  public static Verdict evaluate(TidbClusterStatus status, List<Observed> components) {
    for (Observed c : components) {
      if (c.activity().isPresent()) {
        Activity a = c.activity().get();
        return Verdict.notReady(a.reason(), a.message());
      }
    }
    for (Observed c : components) {
      if (!c.statefulSetUpToDate()) {
        return Verdict.notReady(STATEFULSET_NOT_UP_TO_DATE, "Statefulset(s) are in progress");
      }
    }
    for (Observed c : components) {
      Optional<Verdict> notReady = c.readiness().notReady(status, c.desiredReplicas());
      if (notReady.isPresent()) {
        return notReady.get();
      }
    }
    return new Verdict(Conditions.TRUE, READY, "TiDB cluster is fully up and running");
  }
}
