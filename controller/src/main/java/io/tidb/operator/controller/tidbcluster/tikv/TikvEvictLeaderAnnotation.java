package io.tidb.operator.controller.tidbcluster.tikv;

import io.tidb.operator.api.v1alpha1.cluster.EvictLeaderStatus;
import io.tidb.operator.controller.runtime.Conditions;
import io.tidb.operator.controller.tidbcluster.member.MemberDecision;
import io.tidb.operator.controller.tidbcluster.member.ObservedPod;
import io.tidb.operator.controller.tidbcluster.member.PodActions;
import io.tidb.operator.controller.tidbcluster.member.Rollout;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The user's leader eviction of one TiKV pod: pod annotation {@code tidb.pingcap.com/evict-leader}
 * ({@code none} or {@code delete-pod}), as upstream's pod controller does it, one PD call per pass:
 *
 * <ol>
 *   <li>an annotated pod whose store is not evicted (or whose record in {@code
 *       status.tikv.evictLeader} is missing, has another value, or names an earlier pod: {@code
 *       podCreateTime}) gets PD's evict-leader scheduler and the record ({@code podCreateTime},
 *       {@code beginTime} kept from an earlier record, {@code value});
 *   <li>with {@code delete-pod}, once the store has no leaders left or {@code evictLeaderTimeout}
 *       passes since {@code beginTime}, the pod is deleted (its StatefulSet recreates it, without
 *       the annotation);
 *   <li>a recorded eviction whose pod no longer asks for it (annotation removed, expired by {@code
 *       tidb.pingcap.com/tikv-evict-leader-expiration-time}, or the pod recreated) ends: with
 *       {@code none} at once, with {@code delete-pod} when the pod is Ready again; a record whose
 *       pod has no store any more is forgotten.
 * </ol>
 *
 * An unknown value is ignored, as upstream.
 */
public final class TikvEvictLeaderAnnotation {

  /** The annotation a user puts on a TiKV pod. */
  public static final String KEY = "tidb.pingcap.com/evict-leader";

  /** RFC 3339: after this time the annotation counts as removed. */
  public static final String EXPIRATION_KEY = "tidb.pingcap.com/tikv-evict-leader-expiration-time";

  public static final String NONE = "none";

  public static final String DELETE_POD = "delete-pod";

  private TikvEvictLeaderAnnotation() {}

  /**
   * @param records {@code status.tikv.evictLeader}, by pod
   */
  public record Facts(
      Rollout rollout,
      TikvStores stores,
      Map<String, EvictLeaderStatus> records,
      Duration evictTimeout,
      Instant now) {}

  /** The value a user record carries: {@code none} or {@code delete-pod}. */
  public static boolean userValue(String value) {
    return NONE.equals(value) || DELETE_POD.equals(value);
  }

  /** What the pod asks for now: a known value, not expired; else empty. */
  public static Optional<String> request(ObservedPod pod, Instant now) {
    Optional<String> value = pod.annotation(KEY).map(String::trim).filter(TikvEvictLeaderAnnotation::userValue);
    if (value.isEmpty()) {
      return value;
    }
    Optional<String> expires = pod.annotation(EXPIRATION_KEY);
    if (expires.isPresent()) {
      try {
        if (!now.isBefore(Instant.parse(expires.get().trim()))) {
          return Optional.empty();
        }
      } catch (DateTimeParseException e) {
        return Optional.empty(); // as upstream: a time that cannot be read has expired
      }
    }
    return value;
  }

  /**
   * The store ids whose eviction a user asked for: annotated pods, and user records not yet
   * ended. The stray-eviction rules leave these alone.
   */
  public static Set<String> requested(
      Rollout rollout, Map<String, TikvStores.Store> live, Map<String, EvictLeaderStatus> records,
      Instant now) {
    Set<String> ids = new TreeSet<>();
    for (ObservedPod p : rollout.pods().values()) {
      if (request(p, now).isPresent() && live.containsKey(p.name())) {
        ids.add(live.get(p.name()).id());
      }
    }
    if (records != null) {
      records.forEach((pod, e) -> {
        if (userValue(e.getValue()) && live.containsKey(pod)) {
          ids.add(live.get(pod).id());
        }
      });
    }
    return ids;
  }

  public static MemberDecision decide(Facts f) {
    Map<String, ObservedPod> pods = new TreeMap<>();
    f.rollout().pods().values().forEach(p -> pods.put(p.name(), p));
    Map<String, EvictLeaderStatus> records = new TreeMap<>();
    if (f.records() != null) {
      f.records().forEach((pod, e) -> {
        if (userValue(e.getValue())) {
          records.put(pod, e);
        }
      });
    }
    Set<String> names = new TreeSet<>(pods.keySet());
    names.addAll(records.keySet());
    MemberDecision wait = null;
    for (String name : names) {
      Optional<ObservedPod> pod = Optional.ofNullable(pods.get(name));
      Optional<TikvStores.Store> store = f.stores().of(name);
      EvictLeaderStatus rec = records.get(name);
      Optional<String> asked = pod.flatMap(p -> request(p, f.now()));
      if (asked.isPresent()) {
        if (store.isEmpty()) {
          continue;
        }
        TikvStores.Store s = store.get();
        String created = Conditions.timestamp(pod.get().created());
        if (!f.stores().evicting().contains(s.id())
            || rec == null
            || !asked.get().equals(rec.getValue())
            || !created.equals(rec.getPodCreateTime())) {
          return new MemberDecision.Act(
              new TikvActions.BeginUserEvict(s.id(), name, created, asked.get()),
              "moving the " + s.leaderCount() + " region leaders off " + s.label() + " as its"
                  + " annotation " + KEY + "=" + asked.get() + " asks");
        }
        if (DELETE_POD.equals(asked.get()) && !pod.get().terminating()) {
          Instant began = parse(rec.getBeginTime()).orElse(f.now());
          boolean timedOut = !f.now().isBefore(began.plus(f.evictTimeout()));
          if (s.leaderCount() == 0 || timedOut) {
            return new MemberDecision.Act(
                new PodActions.DeletePod(name, pod.get().uid()),
                "deleting pod " + name + " (" + KEY + "=" + DELETE_POD + "): "
                    + (s.leaderCount() == 0
                        ? "its store " + s.id() + " has no region leaders left"
                        : "evictLeaderTimeout passed with " + s.leaderCount() + " leaders left"));
          }
          wait = wait != null ? wait : MemberDecision.waitFor(
              "moving region leaders off " + s.label() + " before deleting the pod (" + KEY
                  + "=" + DELETE_POD + "): " + s.leaderCount() + " left");
        }
        continue;
      }
      if (rec == null) {
        continue;
      }
      if (store.isEmpty()) {
        return new MemberDecision.Act(
            new TikvActions.ForgetEvict(name),
            "forgetting the leader eviction of pod " + name + ": it has no store in PD");
      }
      if (DELETE_POD.equals(rec.getValue()) && pod.filter(ObservedPod::ready).isEmpty()) {
        continue;
      }
      TikvStores.Store s = store.get();
      String why = endReason(pod, rec);
      return new MemberDecision.Act(
          new TikvActions.EndEvict(s.id(), name),
          "ending leader eviction of " + s.label() + ": " + why);
    }
    return wait != null ? wait : MemberDecision.IDLE;
  }

  private static String endReason(Optional<ObservedPod> pod, EvictLeaderStatus rec) {
    if (pod.isEmpty()) {
      return "its pod is gone";
    }
    ObservedPod p = pod.get();
    if (rec.getPodCreateTime() != null
        && !rec.getPodCreateTime().equals(Conditions.timestamp(p.created()))) {
      return "its pod was recreated";
    }
    if (p.annotation(KEY).isPresent()) {
      return userValue(p.annotation(KEY).get().trim())
          ? "annotation " + KEY + " expired (" + EXPIRATION_KEY + ")"
          : "annotation " + KEY + " has an unknown value";
    }
    return "annotation " + KEY + " was removed";
  }

  private static Optional<Instant> parse(String time) {
    if (time == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(Instant.parse(time));
    } catch (DateTimeParseException e) {
      return Optional.empty();
    }
  }
}
