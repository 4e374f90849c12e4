package io.tidb.operator.controller.tidbcluster.tikv;

import io.tidb.operator.controller.tidbcluster.member.MemberDecision;
import io.tidb.operator.controller.tidbcluster.member.MemberStep;
import io.tidb.operator.controller.tidbcluster.member.ObservedPod;
import io.tidb.operator.controller.tidbcluster.member.Rollout;
import io.tidb.operator.controller.tidbcluster.member.VolumeReplace;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * TiKV's scale-in rule. Up to {@code scaleInParallelism} of the highest ordinals are removed at a
 * time, one PD call per pass:
 *
 * <ol>
 *   <li>an evict-leader scheduler on one of this cluster's stores that is not being removed ends,
 *       unless a user asked for it ({@code tidb.pingcap.com/evict-leader});
 *   <li>a store is never taken out of service when PD's Up TiKV stores are fewer than {@code
 *       max-replicas}, nor when they are exactly {@code max-replicas} and the store is Up (Warning
 *       {@code FailedScaleIn});
 *   <li>its leaders are evicted first, until none is left or {@code evictLeaderTimeout} passes;
 *   <li>then {@code DELETE store/<id>} makes it Offline, and the rule waits, without deleting
 *       again, while PD moves its regions away, until PD reports it Tombstone;
 *   <li>a pod whose store is Tombstone, or that never registered a store (missing, or not Ready
 *       long enough to be sure), no longer blocks: its eviction ends, its volumes are marked for
 *       deferred deletion and the StatefulSet shrinks past it.
 * </ol>
 */
public final class TikvScaleIn {

  private TikvScaleIn() {}

  /**
   * @param parallelism {@code scaleInParallelism}, at least 1
   * @param bootstrapped PD's cluster is bootstrapped (a store has joined)
   * @param registerGrace how long a pod that is not Ready may go without a store before it is
   *     taken as never registered
   */
  public record Facts(
      Rollout rollout,
      int wanted,
      int parallelism,
      TikvStores stores,
      int maxReplicas,
      Duration evictTimeout,
      boolean bootstrapped,
      Duration registerGrace,
      Instant now) {}

  public static MemberDecision decide(Facts f) {
    Rollout r = f.rollout();
    int current = r.replicas();
    int lowest = Math.max(f.wanted(), current - Math.max(1, f.parallelism()));
    Set<String> targets = new HashSet<>();
    for (int o = lowest; o < current; o++) {
      f.stores().of(r.podName(o)).ifPresent(s -> targets.add(s.id()));
    }
    Optional<TikvActions.EndEvict> stray = f.stores().strayEviction(targets);
    if (stray.isPresent()) {
      TikvActions.EndEvict end = stray.get();
      return new MemberDecision.Act(
          end,
          "ending leader eviction of store " + end.storeId()
              + (end.pod() == null
                  ? ", which has left the cluster"
                  : " (" + end.pod() + "), which is not being removed"));
    }
    long up = f.stores().upInPd();
    int done = 0;
    boolean contiguous = true;
    MemberDecision act = null;
    MemberDecision wait = null;
    MemberDecision blocked = null;
    for (int o = current - 1; o >= lowest; o--) {
      String pod = r.podName(o);
      Optional<TikvStores.Store> store = f.stores().of(pod);
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
      TikvStores.Store s = store.get();
      if (s.offline()) {
        wait = wait != null ? wait : MemberDecision.waitFor(
            s.label() + " is Offline, " + s.regionCount() + " regions left; scale-in continues"
                + " when PD reports it Tombstone");
        continue;
      }
      if (up < f.maxReplicas() || (up == f.maxReplicas() && s.up())) {
        blocked = blocked != null ? blocked : new MemberDecision.Blocked(
            MemberStep.FAILED_SCALE_IN,
            "cannot remove " + s.label() + ": " + up + " TiKV stores are Up"
                + (f.stores().otherClustersUp() > 0 ? " in the PD cluster (" + f.stores().otherClustersUp()
                    + " of other TidbClusters)" : "") + " and PD keeps "
                + f.maxReplicas() + " replicas of each region (replication.max-replicas), so"
                + " removing it would leave regions without enough replicas. Nothing is"
                + " removed: set spec.tikv.replicas back to " + current + ", or add stores (or"
                + " lower max-replicas) first");
        continue;
      }
      if (act != null) {
        continue;
      }
      boolean evicting = f.stores().evicting().contains(s.id());
      if (s.up() && s.leaderCount() > 0 && !evicting && up > 1) {
        act = new MemberDecision.Act(
            new TikvActions.BeginEvict(s.id(), pod, s.leaderCount(), false),
            "moving the " + s.leaderCount() + " region leaders off " + s.label()
                + " before it is removed");
        continue;
      }
      Instant began = f.stores().evictBegan().getOrDefault(pod, f.now());
      if (evicting && s.leaderCount() > 0 && f.now().isBefore(began.plus(f.evictTimeout()))) {
        wait = wait != null ? wait : MemberDecision.waitFor(
            "moving region leaders off " + s.label() + " before it is removed: "
                + s.leaderCount() + " left (gives up waiting after evictLeaderTimeout "
                + f.evictTimeout().toSeconds() + " s)");
        continue;
      }
      act = new MemberDecision.Act(
          new TikvActions.DeleteStore(s.id(), pod),
          "deleting " + s.label() + " from PD: it goes Offline while PD moves its "
              + s.regionCount() + " regions to other stores (scale-in from " + current + " to "
              + f.wanted() + ")");
      if (s.up()) {
        up--;
      }
    }
    if (done > 0) {
      return new MemberDecision.Resize(
          current - done,
          (done == 1 ? "pod " + r.podName(current - 1) + " has" : done + " pods have")
              + " no store left in PD; removing " + (done == 1 ? "it" : "them")
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

  /**
   * A scale-in given up (the spec's replicas went back up while a store was still Offline): the
   * first Offline store of an ordinal below {@code wanted} gets its removal cancelled, so it
   * comes back Up instead of draining to Tombstone under a pod the spec keeps. A pod annotated
   * {@code tidb.pingcap.com/replace-volume} is left alone: its store is being removed on purpose.
   */
  public static Optional<MemberDecision> cancelAbandoned(TikvStores stores, Rollout r, int wanted) {
    for (int o = 0; o < Math.min(wanted, r.replicas()); o++) {
      Optional<TikvStores.Store> s = stores.of(r.podName(o));
      boolean replacing =
          r.pod(o).flatMap(p -> p.annotation(VolumeReplace.ANNOTATION)).isPresent();
      if (s.isPresent() && s.get().offline() && !replacing) {
        return Optional.of(
            new MemberDecision.Act(
                new TikvActions.CancelRemoval(s.get().id(), s.get().pod()),
                "cancelling the removal of " + s.get().label() + ": spec.tikv.replicas is "
                    + wanted + " again, so the store is set back to Up"));
      }
    }
    return Optional.empty();
  }

  /** Empty when the pod never registered a store and will not: missing, or not Ready long enough. */
  private static Optional<String> unregisteredWait(Facts f, Optional<ObservedPod> pod, String name) {
    if (pod.isEmpty()) {
      return Optional.empty();
    }
    ObservedPod p = pod.get();
    if (!p.ready() && (!f.bootstrapped() || !f.now().isBefore(p.created().plus(f.registerGrace())))) {
      return Optional.empty();
    }
    return Optional.of(
        "PD lists no store for " + name + " yet; waiting "
            + (p.ready() ? "for it to register" : "up to " + f.registerGrace().toSeconds()
                + " s after its creation in case it registers")
            + " before removing it");
  }
}
