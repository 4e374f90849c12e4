package io.tidb.operator.controller.tidbcluster.tikv;

import static io.tidb.operator.controller.fixtures.Rollouts.LONG_AGO;
import static io.tidb.operator.controller.fixtures.Rollouts.NOW;
import static io.tidb.operator.controller.fixtures.Rollouts.OLD;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tidb.operator.controller.fixtures.Rollouts;
import io.tidb.operator.controller.tidbcluster.member.MemberDecision;
import io.tidb.operator.controller.tidbcluster.member.MemberStep;
import io.tidb.operator.controller.tidbcluster.member.Rollout;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class TikvScaleInTest {

  private static final Duration EVICT_TIMEOUT = Duration.ofMinutes(10);
  private static final Duration GRACE = Duration.ofMinutes(5);

  /**
   * A TiKV of {@code replicas} pods, all Ready; pod basic-tikv-N has store N+1, Up, with 10·(N+1)
   * leaders and 100·(N+1) regions. Tests change the stores and facts field by field.
   */
  private static final class World {
    Rollouts.Builder pods;
    final Map<String, TikvStores.Store> live = new TreeMap<>();
    final Set<String> tombstonePods = new TreeSet<>();
    final Set<String> evicting = new TreeSet<>();
    final Set<String> requested = new TreeSet<>();
    final Map<String, Instant> evictBegan = new TreeMap<>();
    int wanted;
    int parallelism = 1;
    int maxReplicas = 3;
    int otherClustersUp;
    boolean bootstrapped = true;

    World(int replicas, int wanted) {
      this.wanted = wanted;
      pods = Rollouts.rollout("basic-tikv", replicas).allReady(OLD);
      for (int i = 0; i < replicas; i++) {
        store(i, "Up", 10 * (i + 1));
      }
    }

    /** Pod basic-tikv-{@code ordinal}'s store (id ordinal+1) in {@code state}. */
    World store(int ordinal, String state, int leaders) {
      String pod = "basic-tikv-" + ordinal;
      live.put(
          pod,
          new TikvStores.Store(String.valueOf(ordinal + 1), pod, state, leaders, 100 * (ordinal + 1)));
      return this;
    }

    World tombstone(int ordinal) {
      live.remove("basic-tikv-" + ordinal);
      tombstonePods.add("basic-tikv-" + ordinal);
      return this;
    }

    World noStore(int ordinal) {
      live.remove("basic-tikv-" + ordinal);
      return this;
    }

    World evicting(int ordinal, Instant began) {
      evicting.add(String.valueOf(ordinal + 1));
      if (began != null) {
        evictBegan.put("basic-tikv-" + ordinal, began);
      }
      return this;
    }

    MemberDecision decide() {
      Rollout r = pods.build();
      return TikvScaleIn.decide(
          new TikvScaleIn.Facts(
              r,
              wanted,
              parallelism,
              new TikvStores(live, tombstonePods, evicting, evictBegan, requested, otherClustersUp),
              maxReplicas,
              EVICT_TIMEOUT,
              bootstrapped,
              GRACE,
              NOW));
    }
  }

  private static MemberDecision.Act act(MemberDecision d) {
    return assertInstanceOf(MemberDecision.Act.class, d, d::toString);
  }

  private static MemberDecision.Wait waits(MemberDecision d, String... parts) {
    MemberDecision.Wait w = assertInstanceOf(MemberDecision.Wait.class, d, d::toString);
    for (String part : parts) {
      assertTrue(w.message().contains(part), () -> w.message() + " lacks " + part);
    }
    return w;
  }

  private static MemberDecision.Resize resize(MemberDecision d, int replicas) {
    MemberDecision.Resize r = assertInstanceOf(MemberDecision.Resize.class, d, d::toString);
    assertEquals(replicas, r.replicas());
    return r;
  }

  private static MemberDecision.Blocked blocked(MemberDecision d, String... parts) {
    MemberDecision.Blocked b = assertInstanceOf(MemberDecision.Blocked.class, d, d::toString);
    assertEquals(MemberStep.FAILED_SCALE_IN, b.reason());
    for (String part : parts) {
      assertTrue(b.message().contains(part), () -> b.message() + " lacks " + part);
    }
    return b;
  }

  // --- eviction, deletion, Offline, Tombstone: the path of one store ---

  @Test
  void theLeadersOfTheHighestStoreAreEvictedFirst() {
    MemberDecision.Act a = act(new World(4, 3).decide());
    assertEquals(new TikvActions.BeginEvict("4", "basic-tikv-3", 40, false), a.action());
    assertEquals(
        "moving the 40 region leaders off store 4 (basic-tikv-3) before it is removed",
        a.message());
  }

  @Test
  void anEvictionInProgressIsWaitedForUntilTheTimeout() {
    World w = new World(4, 3).store(3, "Up", 7).evicting(3, NOW.minus(EVICT_TIMEOUT).plusSeconds(1));
    waits(w.decide(), "moving region leaders off store 4 (basic-tikv-3)", "7 left",
        "evictLeaderTimeout 600 s");
  }

  @Test
  void anEvictionWithNoRecordedStartCountsFromNow() {
    World w = new World(4, 3).store(3, "Up", 7).evicting(3, null);
    waits(w.decide(), "7 left");
  }

  @Test
  void anEvictionRecordOfAnotherPodIsNotUsed() {
    World w = new World(4, 3).store(3, "Up", 7).evicting(3, null);
    w.evictBegan.put("basic-tikv-0", NOW.minus(Duration.ofDays(1)));
    waits(w.decide(), "7 left");
  }

  @Test
  void theStoreIsDeletedOnceItsLeadersAreGone() {
    World w = new World(4, 3).store(3, "Up", 0).evicting(3, NOW);
    MemberDecision.Act a = act(w.decide());
    assertEquals(new TikvActions.DeleteStore("4", "basic-tikv-3"), a.action());
    assertEquals("StoreDeleted", a.action().reason());
    assertEquals(
        "deleting store 4 (basic-tikv-3) from PD: it goes Offline while PD moves its 400 regions"
            + " to other stores (scale-in from 4 to 3)",
        a.message());
  }

  @Test
  void theStoreIsDeletedWhenTheEvictionTimesOut() {
    World w = new World(4, 3).store(3, "Up", 7).evicting(3, NOW.minus(EVICT_TIMEOUT));
    assertEquals(new TikvActions.DeleteStore("4", "basic-tikv-3"), act(w.decide()).action());
  }

  @Test
  void aStoreWithoutLeadersIsDeletedWithoutEviction() {
    World w = new World(4, 3).store(3, "Up", 0);
    assertEquals(new TikvActions.DeleteStore("4", "basic-tikv-3"), act(w.decide()).action());
  }

  @Test
  void aDownStoreIsDeletedWithoutEviction() {
    World w = new World(5, 4).store(4, "Down", 30);
    assertEquals(new TikvActions.DeleteStore("5", "basic-tikv-4"), act(w.decide()).action());
  }

  @Test
  void aLoneUpStoreHasNowhereToSendItsLeaders() {
    // Only reachable when PD keeps fewer replicas than there are Up stores of one.
    World w = new World(1, 0);
    w.maxReplicas = 0;
    assertEquals(new TikvActions.DeleteStore("1", "basic-tikv-0"), act(w.decide()).action());
  }

  @Test
  void anOfflineStoreIsNeverDeletedAgain() {
    World w = new World(4, 3).store(3, "Offline", 0);
    MemberDecision.Wait wait = waits(w.decide());
    assertEquals(
        "store 4 (basic-tikv-3) is Offline, 400 regions left; scale-in continues when PD reports"
            + " it Tombstone",
        wait.message());
    w.evicting(3, NOW.minus(Duration.ofDays(1)));
    waits(w.decide(), "is Offline, 400 regions left");
  }

  @Test
  void aTombstoneStoreLetsTheStatefulSetShrink() {
    World w = new World(4, 3).tombstone(3);
    MemberDecision.Resize r = resize(w.decide(), 3);
    assertEquals(
        "pod basic-tikv-3 has no store left in PD; removing it (volumes are kept, marked for"
            + " deferred deletion)",
        r.message());
  }

  @Test
  void theEvictionOfATombstoneStoreEndsBeforeTheStatefulSetShrinks() {
    World w = new World(4, 3).tombstone(3);
    w.evicting.add("4");
    MemberDecision.Act a = act(w.decide());
    assertEquals(new TikvActions.EndEvict("4", null), a.action());
    assertEquals("ending leader eviction of store 4, which has left the cluster", a.message());
  }

  // --- stray evictions ---

  @Test
  void anEvictionOnAStoreThatIsNotBeingRemovedEndsFirst() {
    World w = new World(4, 3).evicting(0, NOW).evicting(3, NOW);
    MemberDecision.Act a = act(w.decide());
    assertEquals(new TikvActions.EndEvict("1", "basic-tikv-0"), a.action());
    assertEquals("EvictLeaderEnded", a.action().reason());
    assertEquals(
        "ending leader eviction of store 1 (basic-tikv-0), which is not being removed",
        a.message());
  }

  @Test
  void anEvictionAUserAskedForIsNotAStrayOne() {
    // basic-tikv-0 carries tidb.pingcap.com/evict-leader: its eviction stays, the scale-in goes on.
    World w = new World(4, 3).evicting(0, NOW);
    w.requested.add("1");
    MemberDecision.Act a = act(w.decide());
    assertEquals(new TikvActions.BeginEvict("4", "basic-tikv-3", 40, false), a.action());
  }

  @Test
  void onlyTheStrayEvictionsNoUserAskedForEnd() {
    World w = new World(4, 3).evicting(0, NOW).evicting(1, NOW);
    w.requested.add("1");
    assertEquals(new TikvActions.EndEvict("2", "basic-tikv-1"), act(w.decide()).action());
  }

  @Test
  void anEvictionOnAStoreOfAnOrdinalPastTheStatefulSetIsAStrayOne() {
    // basic-tikv-4 is no longer in the StatefulSet, but PD still lists its store.
    World w = new World(4, 3).store(4, "Down", 0).evicting(4, NOW);
    assertEquals(new TikvActions.EndEvict("5", "basic-tikv-4"), act(w.decide()).action());
  }

  @Test
  void theEvictionOfTheStoreBeingRemovedIsKept() {
    World w = new World(4, 3).store(3, "Up", 7).evicting(3, NOW);
    waits(w.decide(), "7 left");
  }

  // --- max-replicas refusals ---

  @Test
  void fewerUpStoresThanMaxReplicasRefuseTheScaleIn() {
    World w = new World(4, 3).store(1, "Down", 0).store(3, "Down", 0);
    blocked(w.decide(), "cannot remove store 4 (basic-tikv-3)", "2 TiKV stores are Up",
        "keeps 3 replicas", "replication.max-replicas");
  }

  @Test
  void asManyUpStoresAsMaxReplicasRefuseRemovingAnUpStore() {
    World w = new World(3, 2);
    blocked(w.decide(), "cannot remove store 3 (basic-tikv-2)", "3 TiKV stores are Up");
  }

  @Test
  void asManyUpStoresAsMaxReplicasAllowRemovingADownStore() {
    World w = new World(4, 3).store(3, "Down", 5);
    assertEquals(new TikvActions.DeleteStore("4", "basic-tikv-3"), act(w.decide()).action());
  }

  @Test
  void moreUpStoresThanMaxReplicasAllowTheScaleIn() {
    World w = new World(4, 3);
    w.maxReplicas = 3;
    assertEquals(TikvActions.BeginEvict.class, act(w.decide()).action().getClass());
  }

  @Test
  void inAHeterogeneousClusterTheOtherClustersUpStoresCountTowardsMaxReplicas() {
    World w = new World(1, 0);
    w.otherClustersUp = 3;
    assertEquals(TikvActions.BeginEvict.class, act(w.decide()).action().getClass(),
        "4 Up stores in PD: the last one of this cluster may go");
    w.maxReplicas = 4;
    blocked(w.decide(), "cannot remove store 1 (basic-tikv-0)",
        "4 TiKV stores are Up in the PD cluster (3 of other TidbClusters)", "keeps 4 replicas");
  }

  @Test
  void aPodWithoutAStoreIsRemovedEvenWhenTooFewStoresAreUp() {
    World w = new World(3, 2).noStore(2).store(1, "Down", 0);
    w.pods.without(2);
    resize(w.decide(), 2);
  }

  // --- pods that never registered a store ---

  @Test
  void aMissingPodWithoutAStoreDoesNotBlock() {
    World w = new World(4, 3).noStore(3);
    w.pods.without(3);
    resize(w.decide(), 3);
  }

  @Test
  void aPodThatIsNotReadyIsGivenTheGraceToRegister() {
    World w = new World(4, 3).noStore(3);
    w.pods.pod(Rollouts.pod("basic-tikv", 3, OLD, Optional.empty(), NOW.minus(GRACE).plusSeconds(1)));
    waits(w.decide(), "PD lists no store for basic-tikv-3 yet",
        "up to 300 s after its creation", "before removing it");
  }

  @Test
  void aPodThatIsNotReadyPastTheGraceIsTakenAsNeverRegistered() {
    World w = new World(4, 3).noStore(3);
    w.pods.pod(Rollouts.pod("basic-tikv", 3, OLD, Optional.empty(), NOW.minus(GRACE)));
    resize(w.decide(), 3);
  }

  @Test
  void beforeTheClusterIsBootstrappedAPodThatIsNotReadyNeedsNoGrace() {
    World w = new World(4, 3).noStore(3);
    w.bootstrapped = false;
    w.pods.pod(Rollouts.pod("basic-tikv", 3, OLD, Optional.empty(), NOW));
    resize(w.decide(), 3);
  }

  @Test
  void aReadyPodWithoutAStoreWaitsForItToRegister() {
    World w = new World(4, 3).noStore(3);
    waits(w.decide(), "PD lists no store for basic-tikv-3 yet; waiting for it to register");
    w.bootstrapped = false;
    w.pods.pod(Rollouts.pod("basic-tikv", 3, OLD, Optional.of(LONG_AGO), LONG_AGO));
    waits(w.decide(), "waiting for it to register");
  }

  @Test
  void aTerminatingPodIsNotReady() {
    World w = new World(4, 3).noStore(3);
    w.pods.terminating(3, OLD);
    resize(w.decide(), 3);
  }

  // --- scaleInParallelism ---

  @Test
  void withParallelismTwoTheHighestStoreActsWhileTheNextWaitsItsTurn() {
    World w = new World(5, 3);
    w.parallelism = 2;
    assertEquals(new TikvActions.BeginEvict("5", "basic-tikv-4", 50, false),
        act(w.decide()).action());

    w.store(4, "Up", 0).evicting(4, NOW);
    assertEquals(new TikvActions.DeleteStore("5", "basic-tikv-4"), act(w.decide()).action());

    w.store(4, "Offline", 0);
    assertEquals(new TikvActions.BeginEvict("4", "basic-tikv-3", 40, false),
        act(w.decide()).action());
  }

  @Test
  void withParallelismTwoBothStoresProgressAndTheFirstWaitIsReported() {
    World w = new World(5, 3).store(4, "Offline", 0).store(3, "Up", 9).evicting(3, NOW);
    w.parallelism = 2;
    waits(w.decide(), "store 5 (basic-tikv-4) is Offline");

    w.store(3, "Up", 0);
    assertEquals(new TikvActions.DeleteStore("4", "basic-tikv-3"), act(w.decide()).action());
  }

  @Test
  void withParallelismTwoTheFirstOfTwoOfflineStoresIsReported() {
    World w = new World(5, 3).store(4, "Offline", 0).store(3, "Offline", 0);
    w.parallelism = 2;
    waits(w.decide(), "store 5 (basic-tikv-4) is Offline, 500 regions left");
  }

  @Test
  void withParallelismTwoTheFirstRefusalIsReported() {
    World w = new World(5, 3).store(0, "Down", 0).store(1, "Down", 0).store(2, "Down", 0);
    w.parallelism = 2;
    blocked(w.decide(), "cannot remove store 5 (basic-tikv-4)", "2 TiKV stores are Up");
  }

  @Test
  void aRefusalGivesWayToAStoreThatIsStillLeaving() {
    // basic-tikv-4 is Offline; basic-tikv-3 would be the third store out with 3 left Up.
    World w = new World(5, 3).store(4, "Offline", 0).store(0, "Down", 0);
    w.parallelism = 2;
    waits(w.decide(), "store 5 (basic-tikv-4) is Offline");
  }

  @Test
  void withParallelismTwoTheStatefulSetShrinksOverTheFinishedTopOrdinalsOnly() {
    World w = new World(5, 3).tombstone(4).store(3, "Offline", 0);
    w.parallelism = 2;
    MemberDecision.Resize r = resize(w.decide(), 4);
    assertTrue(r.message().startsWith("pod basic-tikv-4 has no store left in PD"), r.message());

    w = new World(5, 3).store(4, "Offline", 0).tombstone(3);
    w.parallelism = 2;
    waits(w.decide(), "store 5 (basic-tikv-4) is Offline");

    w = new World(5, 3).tombstone(4).tombstone(3);
    w.parallelism = 2;
    r = resize(w.decide(), 3);
    assertEquals(
        "2 pods have no store left in PD; removing them (volumes are kept, marked for deferred"
            + " deletion)",
        r.message());
  }

  @Test
  void aFinishedTopOrdinalShrinksTheStatefulSetBeforeTheNextStoreActs() {
    World w = new World(5, 3).tombstone(4);
    w.parallelism = 2;
    resize(w.decide(), 4);
  }

  @Test
  void aWaitingPodBelowAFinishedOneDoesNotHoldTheShrink() {
    World w = new World(5, 3).tombstone(4).noStore(3);
    w.parallelism = 2;
    resize(w.decide(), 4);
    w = new World(5, 3).noStore(4).tombstone(3);
    w.parallelism = 2;
    waits(w.decide(), "PD lists no store for basic-tikv-4 yet");
  }

  @Test
  void theFirstOfTwoWaitingPodsIsReported() {
    World w = new World(5, 3).noStore(4).noStore(3);
    w.parallelism = 2;
    waits(w.decide(), "basic-tikv-4");
  }

  @Test
  void parallelismNeverGoesPastTheWantedReplicas() {
    World w = new World(4, 3).tombstone(3).tombstone(2);
    w.parallelism = 3;
    resize(w.decide(), 3);
    // basic-tikv-2 stays, so an eviction on its store is a stray one.
    w = new World(4, 3).evicting(2, NOW);
    w.parallelism = 2;
    assertEquals(new TikvActions.EndEvict("3", "basic-tikv-2"), act(w.decide()).action());
  }

  @Test
  void aParallelismBelowOneRemovesOneAtATime() {
    World w = new World(5, 3).tombstone(4).tombstone(3);
    w.parallelism = 0;
    resize(w.decide(), 4);
  }

  @Test
  void nothingToRemoveIsIdle() {
    assertEquals(MemberDecision.IDLE, new World(3, 3).decide());
  }

  // --- TikvStores ---

  @Test
  void storesKnowTheirStateAndPod() {
    TikvStores.Store up = new TikvStores.Store("7", "basic-tikv-2", "Up", 1, 2);
    TikvStores.Store offline = new TikvStores.Store("8", "basic-tikv-3", "Offline", 0, 2);
    assertTrue(up.up());
    assertFalse(up.offline());
    assertTrue(offline.offline());
    assertFalse(offline.up());
    assertEquals("store 7 (basic-tikv-2)", up.label());
    TikvStores stores =
        new TikvStores(
            Map.of("basic-tikv-2", up, "basic-tikv-3", offline), Set.of(), Set.of(), Map.of());
    assertEquals(1, stores.upCount());
    assertEquals("basic-tikv-3", stores.podOf("8"));
    assertEquals(null, stores.podOf("9"));
    assertEquals(Optional.of(up), stores.of("basic-tikv-2"));
    assertEquals(Optional.empty(), stores.of("basic-tikv-9"));
  }
}
