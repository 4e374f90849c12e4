package io.tidb.operator.controller.tidbcluster.member;

import io.tidb.operator.api.v1alpha1.cluster.FailureStore;
import io.tidb.operator.api.v1alpha1.cluster.TikvStore;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * The store failover TiKV and TiFlash share, upstream's rules ({@code common_store_failover.go},
 * {@code tikv_failover.go}, {@code tiflash_failover.go} and the member managers): a store of a pod
 * the spec asks for that PD has reported {@code Down} for longer than the failover period is
 * recorded in {@code status.<component>.failureStores}, up to {@code maxFailoverCount} records;
 * the StatefulSet gets {@code spec.<component>.replicas} plus one replica per record. Nothing
 * shrinks on its own: the records (and with them the extra replicas) go only when {@code
 * recoverFailover} is true, or {@code failover.recoverByUID} equals {@code failoverUID}, and
 * every pod the spec asks for is Ready with an Up store. A record of a pod the spec no longer
 * asks for (a scale-in) is dropped.
 */
public final class StoreFailover {

  private StoreFailover() {}

  /**
   * What one pass sees.
   *
   * @param statefulSet the component's StatefulSet, e.g. {@code basic-tikv}; its pods are {@code
   *     <statefulSet>-<ordinal>}
   * @param stores {@code status.<component>.stores}, by store id
   * @param records {@code status.<component>.failureStores}, by store id
   * @param failoverUid {@code status.<component>.failoverUID}
   * @param specReplicas {@code spec.<component>.replicas}
   * @param maxFailoverCount {@code spec.<component>.maxFailoverCount} (null or 0: no records)
   * @param recoverFailover {@code spec.<component>.recoverFailover}
   * @param recoverByUid {@code spec.<component>.failover.recoverByUID}
   * @param ready the component's pods that are Ready
   * @param auto {@code --auto-failover}
   * @param quiet PD's stores were read this reconcile and TiKV is neither scaling nor being
   *     upgraded: a new record may be made
   * @param newUid the UID to give a first failover ({@code failoverUID})
   */
  public record Facts(
      String statefulSet,
      Map<String, TikvStore> stores,
      Map<String, FailureStore> records,
      String failoverUid,
      int specReplicas,
      Integer maxFailoverCount,
      boolean recoverFailover,
      String recoverByUid,
      Set<String> ready,
      boolean auto,
      boolean quiet,
      Duration period,
      Instant now,
      String newUid) {}

  /**
   * The outcome.
   *
   * @param records the new {@code failureStores} (null when none)
   * @param failoverUid the new {@code failoverUID} (null when none)
   * @param recorded the stores recorded in this pass, for Warning Events
   * @param recovered the records were cleared by {@code recoverFailover} / {@code recoverByUID}
   */
  public record Result(
      Map<String, FailureStore> records,
      String failoverUid,
      List<FailureStore> recorded,
      boolean recovered) {}

  public static Result decide(Facts f) {
    Map<String, FailureStore> records =
        f.records() == null ? new TreeMap<>() : new TreeMap<>(f.records());
    Map<String, TikvStore> stores = f.stores() == null ? Map.of() : f.stores();
    records.values().removeIf(r -> !desired(f, r.getPodName()));
    if (!records.isEmpty()
        && (f.recoverFailover()
            || (f.recoverByUid() != null
                && !f.recoverByUid().isEmpty()
                && Objects.equals(f.recoverByUid(), f.failoverUid())))
        && allUp(f, stores)) {
      return new Result(null, null, List.of(), true);
    }
    String uid = f.failoverUid();
    List<FailureStore> recorded = new ArrayList<>();
    int max = f.maxFailoverCount() == null ? 0 : f.maxFailoverCount();
    if (f.auto() && f.quiet() && max > 0) {
      for (Map.Entry<String, TikvStore> e : new TreeMap<>(stores).entrySet()) {
        TikvStore store = e.getValue();
        String pod = store.getPodName();
        if (!"Down".equals(store.getState())
            || !desired(f, pod)
            || !overdue(store.getLastTransitionTime(), f)) {
          continue;
        }
        if (uid == null || uid.isEmpty()) {
          uid = f.newUid();
        }
        boolean exists = records.values().stream().anyMatch(r -> Objects.equals(pod, r.getPodName()));
        if (exists) {
          continue;
        }
        if (records.size() >= max) {
          break;
        }
        FailureStore record = new FailureStore();
        record.setPodName(pod);
        record.setStoreID(store.getId() == null ? e.getKey() : store.getId());
        record.setCreatedAt(f.now().toString());
        records.put(e.getKey(), record);
        recorded.add(record);
      }
    }
    return new Result(records.isEmpty() ? null : records, emptyToNull(uid), recorded, false);
  }

  /** The pod's ordinal is below the spec's replicas: not a failover replacement. */
  private static boolean desired(Facts f, String pod) {
    if (pod == null) {
      return false;
    }
    String prefix = f.statefulSet() + "-";
    if (!pod.startsWith(prefix)) {
      return false;
    }
    try {
      int ordinal = Integer.parseInt(pod.substring(prefix.length()));
      return ordinal >= 0 && ordinal < f.specReplicas();
    } catch (NumberFormatException e) {
      return false;
    }
  }

  /** Every pod the spec asks for is Ready and has an Up store. */
  private static boolean allUp(Facts f, Map<String, TikvStore> stores) {
    for (int i = 0; i < f.specReplicas(); i++) {
      String pod = f.statefulSet() + "-" + i;
      if (!f.ready().contains(pod)) {
        return false;
      }
      boolean up =
          stores.values().stream()
              .anyMatch(s -> pod.equals(s.getPodName()) && "Up".equals(s.getState()));
      if (!up) {
        return false;
      }
    }
    return true;
  }

  private static boolean overdue(String since, Facts f) {
    if (since == null || since.isEmpty()) {
      return false;
    }
    return f.now().isAfter(Instant.parse(since).plus(f.period()));
  }

  private static String emptyToNull(String s) {
    return s == null || s.isEmpty() ? null : s;
  }
}
