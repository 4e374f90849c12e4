package io.tidb.operator.controller.status;

import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.tidb.operator.api.v1alpha1.cluster.PdMember;
import io.tidb.operator.api.v1alpha1.cluster.TidbClusterStatus;
import io.tidb.operator.api.v1alpha1.cluster.TidbMember;
import io.tidb.operator.api.v1alpha1.cluster.TikvStore;
import io.tidb.operator.controller.desired.Component;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Decides the cluster's {@code Ready} condition the way upstream does: true only when every
 * component's StatefulSet is up to date and PD, TiKV and TiDB are all healthy with the desired
 * number of members; otherwise false with the first failing reason, checked in this order. A
 * component whose state PD could not report this time ({@code synced} false) is not healthy:
 * stale members never make a cluster Ready.
 */
public final class ReadyCondition {

  public static final String TYPE = "Ready";

  /** Reason spellings are upstream's, including its typo in {@code StatfulSetNotUpToDate}. */
  public static final String STATEFULSET_NOT_UP_TO_DATE = "StatfulSetNotUpToDate";

  public static final String PD_UNHEALTHY = "PDUnhealthy";
  public static final String TIKV_STORE_NOT_UP = "TiKVStoreNotUp";
  public static final String TIDB_UNHEALTHY = "TiDBUnhealthy";
  public static final String READY = "Ready";

  private ReadyCondition() {}

  /**
   * One component the cluster's spec asks for.
   *
   * @param desiredReplicas how many members it should have (what the operator applied)
   * @param statefulSet its StatefulSet as cached, if it exists
   */
  public record Observed(
      Component component, int desiredReplicas, Optional<StatefulSet> statefulSet) {}

  /** The evaluated condition: status {@code True}/{@code False}, reason and message. */
  public record Verdict(String status, String reason, String message) {
    public boolean ready() {
      return Conditions.TRUE.equals(status);
    }
  }

  public static Verdict evaluate(TidbClusterStatus status, List<Observed> components) {
    for (Observed c : components) {
      if (c.statefulSet().isEmpty() || !ComponentPhase.isUpToDate(c.statefulSet().get())) {
        return notReady(STATEFULSET_NOT_UP_TO_DATE, "Statefulset(s) are in progress");
      }
    }
    for (Observed c : components) {
      switch (c.component()) {
        case PD -> {
          if (!pdReady(status, c.desiredReplicas())) {
            return notReady(PD_UNHEALTHY, "PD(s) are not healthy");
          }
        }
        case TIKV -> {
          if (!tikvReady(status, c.desiredReplicas())) {
            return notReady(TIKV_STORE_NOT_UP, "TiKV store(s) are not up");
          }
        }
        case TIDB -> {
          if (!tidbReady(status, c.desiredReplicas())) {
            return notReady(TIDB_UNHEALTHY, "TiDB(s) are not healthy");
          }
        }
        default -> {}
      }
    }
    return new Verdict(Conditions.TRUE, READY, "TiDB cluster is fully up and running");
  }

  private static Verdict notReady(String reason, String message) {
    return new Verdict(Conditions.FALSE, reason, message);
  }

  static boolean pdReady(TidbClusterStatus status, int desired) {
    Map<String, PdMember> members = status.getPd() == null ? null : status.getPd().getMembers();
    return status.getPd() != null
        && Boolean.TRUE.equals(status.getPd().getSynced())
        && sizeIs(members, desired)
        && all(members, m -> Boolean.TRUE.equals(m.getHealth()));
  }

  static boolean tikvReady(TidbClusterStatus status, int desired) {
    Map<String, TikvStore> stores = status.getTikv() == null ? null : status.getTikv().getStores();
    return status.getTikv() != null
        && Boolean.TRUE.equals(status.getTikv().getSynced())
        && sizeIs(stores, desired)
        && all(stores, s -> StoreStates.UP.equals(s.getState()));
  }

  static boolean tidbReady(TidbClusterStatus status, int desired) {
    Map<String, TidbMember> members =
        status.getTidb() == null ? null : status.getTidb().getMembers();
    return sizeIs(members, desired) && all(members, m -> Boolean.TRUE.equals(m.getHealth()));
  }

  private static <V> boolean all(Map<String, V> map, java.util.function.Predicate<V> test) {
    return map == null || map.values().stream().allMatch(test);
  }

  private static boolean sizeIs(Map<?, ?> map, int desired) {
    return (map == null ? 0 : map.size()) == desired;
  }
}
