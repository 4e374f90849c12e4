package io.tidb.operator.controller.tidbcluster.tiflash;

import io.tidb.operator.controller.tidbcluster.member.MemberDecision;
import io.tidb.operator.controller.tidbcluster.member.MemberStep;
import io.tidb.operator.controller.tidbcluster.member.ObservedPod;
import io.tidb.operator.controller.tidbcluster.member.Rollout;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * TiFlash's scale-in rule, upstream's: up to {@code scaleInParallelism} of the highest ordinals at
 * a time, one PD call per pass.
 *
 * <ol>
 *   <li>a pod with a live store that is not Offline yet: {@code DELETE store/<id>};
 *   <li>an Offline store: wait, without deleting again, until PD reports it Tombstone;
 *   <li>a pod whose store is Tombstone, or that never registered one (missing, or not Ready long
 *       enough to be sure), no longer blocks: the StatefulSet shrinks past it, its volumes kept
 *       and marked for deferred deletion.
 * </ol>
 *
 * Unlike TiKV there is no leader to move and no max-replicas check: PD moves TiFlash replicas per
 * its placement rules. Where upstream has no floor, this one keeps as many Up TiFlash stores as
 * the table that asks for the most TiFlash replicas needs ({@code tiflashReplicasNeeded}, from
 * PD's placement rules): removing one more would leave that table's replicas with nowhere to go,
 * so the store is not deleted and the scale-in is reported as refused ({@code FailedScaleIn}).
 */
final class TiflashScaleIn {

  private TiflashScaleIn() {}

  /**
   * @param parallelism {@code spec.tiflash.scalePolicy.scaleInParallelism}, at least 1
   * @param registerGrace how long a pod that is not Ready may go without a store before it is
   *     taken as never registered
   * @param tiflashReplicasNeeded the most TiFlash replicas a table asks for (0: none)
   */
  record Facts(
      Rollout rollout,
      int wanted,
      int parallelism,
      TiflashStores stores,
      Duration registerGrace,
      Instant now,
      int tiflashReplicasNeeded) {}

  static MemberDecision decide(Facts f) {
    Rollout r = f.rollout();
    int current = r.replicas();
    int lowest = Math.max(f.wanted(), current - Math.max(1, f.parallelism()));
    int done = 0;
    boolean contiguous = true;
    MemberDecision act = null;
    MemberDecision wait = null;
    MemberDecision blocked = null;
    int up = (int) f.stores().byPod().values().stream().filter(TiflashStores.Store::up).count();
    for (int o = current - 1; o >= lowest; o--) {
      String pod = r.podName(o);
      Optional<TiflashStores.Store> store = f.stores().of(pod);
      if (store.isEmpty()) {
        Optional<String> notYet = f.stores().tombstonePods().contains(pod)
            ? Optional.empty()
            : unregisteredWait(f, r.pod(o), pod);
        if (notYet.isEmpty()) {
          done += contiguous ? 1 : 0;
        } else {
          contiguous = false;
          wait = wait == null ? MemberDecision.waitFor(notYet.get()) : wait;
        }
        continue;
      }
      contiguous = false;
      TiflashStores.Store s = store.get();
      if (s.offline()) {
        wait = wait != null ? wait : MemberDecision.waitFor(
            s.label() + " is Offline; scale-in continues when PD reports it Tombstone");
        continue;
      }
      if (s.up() && up <= f.tiflashReplicasNeeded()) {
        blocked = blocked != null ? blocked : new MemberDecision.Blocked(
            MemberStep.FAILED_SCALE_IN,
            "cannot remove " + s.label() + ": " + up + " TiFlash stores are Up and a table asks"
                + " for " + f.tiflashReplicasNeeded() + " TiFlash replicas (PD's placement rules"
                + " of group tiflash), so removing it would leave its replicas nowhere to go."
                + " Nothing is removed: set spec.tiflash.replicas back to " + current + ", or"
                + " lower the tables' TiFlash replica count (ALTER TABLE ... SET TIFLASH REPLICA)"
                + " first");
        continue;
      }
      if (act == null) {
        up -= s.up() ? 1 : 0;
        act = new MemberDecision.Act(
            new TiflashActions.DeleteStore(s.id(), pod),
            "deleting " + s.label() + " from PD: it goes Offline while PD moves its replicas"
                + " away (scale-in from " + current + " to " + f.wanted() + ")");
      }
    }
    if (done > 0) {
      return new MemberDecision.Resize(
          current - done,
          (done == 1 ? "pod " + r.podName(current - 1) + " has" : done + " pods have")
              + " no TiFlash store left in PD; removing " + (done == 1 ? "it" : "them")
              + " (volumes are kept, marked for deferred deletion)");
    }
    if (act != null) {
      return act;
    }
    if (wait != null) {
      return wait;
    }
    return blocked != null ? blocked : MemberDecision.IDLE;
  }

  private static Optional<String> unregisteredWait(Facts f, Optional<ObservedPod> pod, String name) {
    if (pod.isEmpty()) {
      return Optional.empty();
    }
    ObservedPod p = pod.get();
    if (!p.ready() && !f.now().isBefore(p.created().plus(f.registerGrace()))) {
      return Optional.empty();
    }
    return Optional.of(
        "PD lists no TiFlash store for " + name + " yet; waiting "
            + (p.ready() ? "for it to register" : "up to " + f.registerGrace().toSeconds()
                + " s after its creation in case it registers")
            + " before removing it");
  }
}
