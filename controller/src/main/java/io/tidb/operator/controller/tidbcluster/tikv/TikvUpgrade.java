package io.tidb.operator.controller.tidbcluster.tikv;

import io.tidb.operator.controller.tidbcluster.member.MemberDecision;
import io.tidb.operator.controller.tidbcluster.member.ObservedPod;
import io.tidb.operator.controller.tidbcluster.member.Rollout;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * TiKV's rolling-upgrade rule, one store per pass from the highest ordinal down:
 *
 * <ol>
 *   <li>an evict-leader scheduler on a store of this cluster other than the one being upgraded
 *       ends (an interrupted upgrade leaves none behind), unless a user asked for it ({@code
 *       tidb.pingcap.com/evict-leader}: such a store also keeps its eviction after its upgrade);
 *   <li>before a pod is restarted its store's leaders are evicted, until none is left or {@code
 *       evictLeaderTimeout} passes; with fewer than 2 Up stores there is nowhere to move them and
 *       the pod is restarted without eviction;
 *   <li>the partition drops to that pod's ordinal and the StatefulSet controller replaces it;
 *   <li>the upgraded pod must be Ready (for {@code tidb.pingcap.com/tikv-min-ready-seconds}) and
 *       its store Up; then the eviction ends, and when the store had at least 200 leaders the
 *       rule waits until two thirds of them are back or {@code waitLeaderTransferBackTimeout}
 *       passes, before the next pod.
 * </ol>
 */
public final class TikvUpgrade {

  /** Below this many leaders before the restart, the rule does not wait for them to return. */
  static final int LEADERS_WORTH_WAITING_FOR = 200;

  private TikvUpgrade() {}

  /** @param leadersBefore each store's leader count when its eviction began, by store id */
  public record Facts(
      Rollout rollout,
      TikvStores stores,
      Map<String, Integer> leadersBefore,
      Duration evictTimeout,
      Duration waitBackTimeout,
      long minReadySeconds,
      Instant now) {}

  public static MemberDecision decide(Facts f) {
    Rollout r = f.rollout();
    for (int i = r.replicas() - 1; i >= 0; i--) {
      Optional<ObservedPod> pod = r.pod(i);
      String name = r.podName(i);
      Optional<TikvStores.Store> store = f.stores().of(name);
      if (pod.isPresent() && r.isUpdated(pod.get())) {
        Optional<MemberDecision> notDone = notDone(f, pod.get(), store);
        if (notDone.isPresent()) {
          return notDone.get();
        }
        continue;
      }
      Optional<MemberDecision> stray = endStray(f, store.map(TikvStores.Store::id));
      if (stray.isPresent()) {
        return stray.get();
      }
      if (pod.isEmpty() || pod.get().terminating()) {
        return MemberDecision.waitFor(
            "waiting for pod " + name + " to be recreated (" + progress(r) + ")");
      }
      if (i >= r.partition()) {
        return MemberDecision.waitFor(
            "waiting for the StatefulSet controller to replace pod " + name + " ("
                + progress(r) + ")");
      }
      if (store.isPresent() && store.get().up() && f.stores().upInPd() >= 2) {
        TikvStores.Store s = store.get();
        if (!f.stores().evicting().contains(s.id())) {
          return new MemberDecision.Act(
              new TikvActions.BeginEvict(s.id(), name, s.leaderCount(), true),
              "moving the " + s.leaderCount() + " region leaders off " + s.label()
                  + " before it is upgraded (" + progress(r) + ")");
        }
        Instant began = f.stores().evictBegan().getOrDefault(name, f.now());
        if (s.leaderCount() > 0 && f.now().isBefore(began.plus(f.evictTimeout()))) {
          return MemberDecision.waitFor(
              "moving region leaders off " + s.label() + " before it is upgraded: "
                  + s.leaderCount() + " left (" + progress(r) + ")");
        }
      }
      return new MemberDecision.Roll(
          i,
          "upgrading " + name + store.map(s -> " (store " + s.id() + ")").orElse("") + ", "
              + progress(r));
    }
    return endStray(f, Optional.empty()).orElse(MemberDecision.IDLE);
  }

  private static Optional<MemberDecision> notDone(
      Facts f, ObservedPod p, Optional<TikvStores.Store> store) {
    String progress = progress(f.rollout());
    if (!p.ready()) {
      return wait("waiting for upgraded pod " + p.name() + " to be Ready (" + progress + ")");
    }
    if (!p.readyFor(f.minReadySeconds(), f.now())) {
      return wait(
          "waiting for upgraded pod " + p.name() + " to stay Ready for " + f.minReadySeconds()
              + " s (tidb.pingcap.com/tikv-min-ready-seconds; " + progress + ")");
    }
    if (store.isEmpty() || !store.get().up()) {
      return wait(
          "waiting for the store of upgraded pod " + p.name() + " to be Up"
              + store.map(s -> " (store " + s.id() + " is " + s.state() + ")").orElse("")
              + " (" + progress + ")");
    }
    TikvStores.Store s = store.get();
    if (f.stores().evicting().contains(s.id()) && !f.stores().requested().contains(s.id())) {
      return Optional.of(
          new MemberDecision.Act(
              new TikvActions.EndEvict(s.id(), p.name()),
              "ending leader eviction of upgraded " + s.label() + " so leaders can return ("
                  + progress + ")"));
    }
    Integer before = f.leadersBefore().get(s.id());
    if (before != null
        && before >= LEADERS_WORTH_WAITING_FOR
        && s.leaderCount() < before * 2L / 3
        && f.now().isBefore(p.readySince().get().plus(f.waitBackTimeout()))) {
      return wait(
          "waiting for region leaders to return to upgraded " + s.label() + ": "
              + s.leaderCount() + " of the " + before + " it had, waiting for two thirds ("
              + progress + ")");
    }
    return Optional.empty();
  }

  private static Optional<MemberDecision> endStray(Facts f, Optional<String> target) {
    return f.stores()
        .strayEviction(target.map(Set::of).orElse(Set.of()))
        .map(
            end ->
                new MemberDecision.Act(
                    end,
                    "ending leader eviction of store " + end.storeId()
                        + (end.pod() == null ? "" : " (" + end.pod() + ")")
                        + ", which is not being upgraded now"));
  }

  private static Optional<MemberDecision> wait(String message) {
    return Optional.of(MemberDecision.waitFor(message));
  }

  static String progress(Rollout r) {
    return r.updatedCount() + " of " + r.replicas() + " done";
  }
}
