package io.tidb.operator.controller.tidbcluster.tiflash;

import io.tidb.operator.controller.tidbcluster.member.MemberDecision;
import io.tidb.operator.controller.tidbcluster.member.ObservedPod;
import io.tidb.operator.controller.tidbcluster.member.Rollout;
import java.time.Instant;
import java.util.Optional;

/**
 * TiFlash's rolling upgrade, upstream's: one pod per pass from the highest ordinal down; each
 * upgraded pod must be Ready, stay Ready for {@code tidb.pingcap.com/tiflash-min-ready-seconds},
 * and have its store Up in PD before the next one is replaced. A pod without a store is replaced
 * without waiting (it holds no data PD knows of). The shared member code holds the upgrade while
 * PD (earlier in the pipeline) is being scaled or upgraded.
 */
final class TiflashUpgrade {

  private TiflashUpgrade() {}

  record Facts(Rollout rollout, TiflashStores stores, long minReadySeconds, Instant now) {}

  static MemberDecision decide(Facts f) {
    Rollout r = f.rollout();
    String progress = r.updatedCount() + " of " + r.replicas() + " done";
    for (int i = r.replicas() - 1; i >= 0; i--) {
      Optional<ObservedPod> pod = r.pod(i);
      if (pod.isEmpty() || pod.get().terminating()) {
        return MemberDecision.waitFor(
            "waiting for pod " + r.podName(i) + " to be recreated (" + progress + ")");
      }
      ObservedPod p = pod.get();
      Optional<TiflashStores.Store> store = f.stores().of(p.name());
      if (r.isUpdated(p)) {
        if (!p.ready()) {
          return MemberDecision.waitFor(
              "waiting for upgraded pod " + p.name() + " to be Ready (" + progress + ")");
        }
        if (!p.readyFor(f.minReadySeconds(), f.now())) {
          return MemberDecision.waitFor(
              "waiting for upgraded pod " + p.name() + " to stay Ready for "
                  + f.minReadySeconds() + " s (tidb.pingcap.com/tiflash-min-ready-seconds; "
                  + progress + ")");
        }
        if (store.isPresent() && !store.get().up()) {
          return MemberDecision.waitFor(
              "waiting for upgraded " + store.get().label() + " to be Up in PD, it is "
                  + store.get().state() + " (" + progress + ")");
        }
        continue;
      }
      if (i >= r.partition()) {
        return MemberDecision.waitFor(
            "waiting for the StatefulSet controller to replace pod " + p.name() + " ("
                + progress + ")");
      }
      return new MemberDecision.Roll(i, "upgrading " + p.name() + " (" + progress + ")");
    }
    return MemberDecision.IDLE;
  }
}
