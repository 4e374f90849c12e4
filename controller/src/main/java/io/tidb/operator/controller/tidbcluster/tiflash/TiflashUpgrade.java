package io.tidb.operator.controller.tidbcluster.tiflash;

import io.tidb.operator.controller.tidbcluster.member.HighestFirstRoll;
import io.tidb.operator.controller.tidbcluster.member.MemberDecision;
import io.tidb.operator.controller.tidbcluster.member.Rollout;
import java.time.Instant;
import java.util.Optional;

/**
 * TiFlash's rolling upgrade, upstream's, on the shared {@link HighestFirstRoll} walk: one pod per
 * pass from the highest ordinal down; each upgraded pod must be Ready, stay Ready for {@code
 * tidb.pingcap.com/tiflash-min-ready-seconds}, and have its store Up in PD before the next one is
 * replaced. A pod without a store is replaced
 * without waiting (it holds no data PD knows of). The shared member code holds the upgrade while
 * PD (earlier in the pipeline) is being scaled or upgraded.
 */
final class TiflashUpgrade {

  private TiflashUpgrade() {}

  record Facts(Rollout rollout, TiflashStores stores, long minReadySeconds, Instant now) {}

  static MemberDecision decide(Facts f) {
    return HighestFirstRoll.decide(f.rollout(), (p, progress) -> {
      if (!p.readyFor(f.minReadySeconds(), f.now())) {
        return Optional.of(
            "waiting for upgraded pod " + p.name() + " to stay Ready for "
                + f.minReadySeconds() + " s (tidb.pingcap.com/tiflash-min-ready-seconds; "
                + progress + ")");
      }
      Optional<TiflashStores.Store> store = f.stores().of(p.name());
      if (store.isPresent() && !store.get().up()) {
        return Optional.of(
            "waiting for upgraded " + store.get().label() + " to be Up in PD, it is "
                + store.get().state() + " (" + progress + ")");
      }
      return Optional.empty();
    });
  }
}
