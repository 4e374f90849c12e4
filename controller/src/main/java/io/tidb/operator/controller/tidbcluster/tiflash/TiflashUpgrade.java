package io.tidb.operator.controller.tidbcluster.tiflash;

import io.tidb.operator.controller.tidbcluster.member.HighestFirstRoll;
import io.tidb.operator.controller.tidbcluster.member.MemberDecision;
import io.tidb.operator.controller.tidbcluster.member.ObservedPod;
import io.tidb.operator.controller.tidbcluster.member.Rollout;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * TiFlash's rolling upgrade, upstream's, on the shared {@link HighestFirstRoll} walk: one pod per
 * pass from the highest ordinal down; each upgraded pod must be Ready, stay Ready for {@code
 * tidb.pingcap.com/tiflash-min-ready-seconds}, have its store Up in PD and, from TiFlash v5.1.2
 * on, report {@code Running} on its own {@code /tiflash/store-status} before the next one is
 * replaced. A pod without a store is replaced without waiting (it holds no data PD knows of).
 * The shared member code holds the upgrade while PD (earlier in the pipeline) is being scaled or
 * upgraded.
 */
final class TiflashUpgrade {

  /** What a TiFlash store that serves reports on {@code /tiflash/store-status}. */
  static final String RUNNING = "Running";

  private TiflashUpgrade() {}

  /** One pod's {@code /tiflash/store-status} answer: the status, or why there is none. */
  record StoreStatus(Optional<String> status, String error) {
    static StoreStatus of(String status) {
      return new StoreStatus(Optional.of(status), "");
    }

    static StoreStatus failed(String error) {
      return new StoreStatus(Optional.empty(), error);
    }
  }

  /**
   * @param checkStoreStatus whether TiFlash serves {@code /tiflash/store-status} (v5.1.2 on,
   *     {@link TiflashVersion#reportsStoreStatus})
   * @param storeStatus the answers of the pods {@link #toAsk} named
   */
  record Facts(Rollout rollout, TiflashStores stores, long minReadySeconds, Instant now,
      boolean checkStoreStatus, Map<String, StoreStatus> storeStatus) {

    /** A TiFlash before v5.1.2: no store-status check. */
    Facts(Rollout rollout, TiflashStores stores, long minReadySeconds, Instant now) {
      this(rollout, stores, minReadySeconds, now, false, Map.of());
    }
  }

  /**
   * The pods whose {@code /tiflash/store-status} {@link #decide} needs: the upgraded ones that
   * passed every other check (Ready long enough, store Up).
   */
  static List<String> toAsk(Rollout r, TiflashStores stores, long minReadySeconds, Instant now) {
    return r.pods().values().stream()
        .filter(p -> p.ordinal() < r.replicas() && r.isUpdated(p) && !p.terminating() && p.ready()
            && p.readyFor(minReadySeconds, now)
            && stores.of(p.name()).map(TiflashStores.Store::up).orElse(false))
        .map(ObservedPod::name)
        .toList();
  }

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
      if (store.isEmpty() || !f.checkStoreStatus()) {
        return Optional.empty();
      }
      StoreStatus answer = f.storeStatus().get(p.name());
      if (answer == null || answer.status().isEmpty()) {
        return Optional.of(
            "waiting for upgraded " + store.get().label() + " to answer /tiflash/store-status"
                + (answer == null ? "" : " (" + answer.error() + ")") + " (" + progress + ")");
      }
      if (!RUNNING.equals(answer.status().get())) {
        return Optional.of(
            "waiting for upgraded " + store.get().label() + " to report Running on"
                + " /tiflash/store-status, it reports " + answer.status().get() + " ("
                + progress + ")");
      }
      return Optional.empty();
    });
  }
}
