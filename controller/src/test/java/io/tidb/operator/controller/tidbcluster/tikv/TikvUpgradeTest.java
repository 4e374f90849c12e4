package io.tidb.operator.controller.tidbcluster.tikv;

import static io.tidb.operator.controller.fixtures.Rollouts.NEW;
import static io.tidb.operator.controller.fixtures.Rollouts.NOW;
import static io.tidb.operator.controller.fixtures.Rollouts.OLD;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tidb.operator.controller.fixtures.Rollouts;
import io.tidb.operator.controller.tidbcluster.member.MemberDecision;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class TikvUpgradeTest {

  private static final Duration EVICT_TIMEOUT = Duration.ofMinutes(10);
  private static final Duration WAIT_BACK_TIMEOUT = Duration.ofSeconds(400);

  /**
   * Three TiKV pods; pod basic-tikv-N has store N+1, Up, with 100·(N+1) leaders. Tests change the
   * pods, stores and facts field by field.
   */
  private static final class World {
    Rollouts.Builder pods = Rollouts.rollout("basic-tikv", 3);
    final Map<String, TikvStores.Store> live = new TreeMap<>();
    final Set<String> evicting = new TreeSet<>();
    final Set<String> requested = new TreeSet<>();
    final Map<String, Instant> evictBegan = new TreeMap<>();
    final Map<String, Integer> leadersBefore = new TreeMap<>();
    long minReadySeconds;

    World() {
      for (int i = 0; i < 3; i++) {
        store(i, "Up", 100 * (i + 1));
      }
    }

    World store(int ordinal, String state, int leaders) {
      String pod = "basic-tikv-" + ordinal;
      live.put(pod, new TikvStores.Store(String.valueOf(ordinal + 1), pod, state, leaders, 1000));
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
      return TikvUpgrade.decide(
          new TikvUpgrade.Facts(
              pods.build(),
              new TikvStores(live, Set.of(), evicting, evictBegan, requested),
              leadersBefore,
              EVICT_TIMEOUT,
              WAIT_BACK_TIMEOUT,
              minReadySeconds,
              NOW));
    }
  }

  /** Nothing upgraded yet. */
  private static World old() {
    World w = new World();
    w.pods.allReady(OLD);
    return w;
  }

  /** basic-tikv-2 released (partition 2) and replaced; basic-tikv-0 and 1 still old. */
  private static World topReplaced(Instant readySince) {
    World w = new World();
    w.pods.partition(2).ready(0, OLD).ready(1, OLD).readySince(2, NEW, readySince);
    return w;
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

  // --- before the restart ---

  @Test
  void theLeadersOfTheHighestStoreAreEvictedBeforeItsPodIsRestarted() {
    MemberDecision.Act a = act(old().decide());
    assertEquals(new TikvActions.BeginEvict("3", "basic-tikv-2", 300, true), a.action());
    assertEquals("EvictLeaderBegun", a.action().reason());
    assertEquals(
        "moving the 300 region leaders off store 3 (basic-tikv-2) before it is upgraded"
            + " (0 of 3 done)",
        a.message());
  }

  @Test
  void theRestartWaitsWhileLeadersAreLeaving() {
    World w = old().store(2, "Up", 12).evicting(2, NOW.minus(EVICT_TIMEOUT).plusSeconds(1));
    assertEquals(
        MemberDecision.waitFor(
            "moving region leaders off store 3 (basic-tikv-2) before it is upgraded: 12 left"
                + " (0 of 3 done)"),
        w.decide());
  }

  @Test
  void anEvictionWithNoRecordedStartCountsFromNow() {
    World w = old().store(2, "Up", 12).evicting(2, null);
    waits(w.decide(), "12 left");
  }

  @Test
  void thePodIsRestartedOnceItsLeadersAreGone() {
    World w = old().store(2, "Up", 0).evicting(2, NOW);
    assertEquals(
        new MemberDecision.Roll(2, "upgrading basic-tikv-2 (store 3), 0 of 3 done"), w.decide());
  }

  @Test
  void thePodIsRestartedWhenTheEvictionTimesOut() {
    World w = old().store(2, "Up", 12).evicting(2, NOW.minus(EVICT_TIMEOUT));
    assertEquals(2, assertInstanceOf(MemberDecision.Roll.class, w.decide()).partition());
  }

  @Test
  void withFewerThanTwoUpStoresThePodIsRestartedWithoutEviction() {
    World w = old().store(0, "Down", 0).store(1, "Down", 0);
    assertEquals(
        new MemberDecision.Roll(2, "upgrading basic-tikv-2 (store 3), 0 of 3 done"), w.decide());

    w = new World().noStore(1).noStore(2);
    w.pods = Rollouts.rollout("basic-tikv", 1).allReady(OLD);
    assertEquals(
        new MemberDecision.Roll(0, "upgrading basic-tikv-0 (store 1), 0 of 1 done"), w.decide());
  }

  @Test
  void twoUpStoresAreEnoughToEvict() {
    World w = old().store(0, "Down", 0);
    assertEquals(TikvActions.BeginEvict.class, act(w.decide()).action().getClass());
  }

  @Test
  void aStoreThatIsNotUpIsRestartedWithoutEviction() {
    World w = old().store(2, "Down", 50);
    assertEquals(2, assertInstanceOf(MemberDecision.Roll.class, w.decide()).partition());
  }

  @Test
  void aPodWithoutAStoreIsRestartedWithoutEviction() {
    World w = old().noStore(2);
    assertEquals(new MemberDecision.Roll(2, "upgrading basic-tikv-2, 0 of 3 done"), w.decide());
  }

  @Test
  void aPartitionAlreadyLoweredWaitsForTheStatefulSetController() {
    World w = old().evicting(2, NOW);
    w.pods.partition(2);
    waits(w.decide(), "waiting for the StatefulSet controller to replace pod basic-tikv-2",
        "(0 of 3 done)");
  }

  @Test
  void aMissingOrTerminatingPodIsWaitedFor() {
    World w = old().evicting(2, NOW);
    w.pods.partition(2).without(2);
    waits(w.decide(), "waiting for pod basic-tikv-2 to be recreated (0 of 3 done)");
    w.pods.terminating(2, OLD);
    waits(w.decide(), "waiting for pod basic-tikv-2 to be recreated");
  }

  // --- stray evictions ---

  @Test
  void anEvictionOnAnotherStoreEndsBeforeTheNextPodIsTouched() {
    World w = old().evicting(0, NOW);
    MemberDecision.Act a = act(w.decide());
    assertEquals(new TikvActions.EndEvict("1", "basic-tikv-0"), a.action());
    assertEquals(
        "ending leader eviction of store 1 (basic-tikv-0), which is not being upgraded now",
        a.message());
  }

  @Test
  void anEvictionAUserAskedForIsNotAStrayOne() {
    World w = old().evicting(0, NOW);
    w.requested.add("1");
    MemberDecision.Act a = act(w.decide());
    TikvActions.BeginEvict b = assertInstanceOf(TikvActions.BeginEvict.class, a.action());
    assertEquals("3", b.storeId());
  }

  @Test
  void anUpgradedStoreAUserAskedToEvictKeepsItsEviction() {
    World w = topReplaced(Rollouts.LONG_AGO).evicting(2, NOW);
    w.requested.add("3");
    // Not ended after its upgrade: the next pod's eviction begins instead.
    TikvActions.BeginEvict b =
        assertInstanceOf(TikvActions.BeginEvict.class, act(w.decide()).action());
    assertEquals("2", b.storeId());
  }

  @Test
  void anEvictionOnAStoreThatIsGoneEnds() {
    World w = old();
    w.evicting.add("9");
    MemberDecision.Act a = act(w.decide());
    assertEquals(new TikvActions.EndEvict("9", null), a.action());
    assertEquals("ending leader eviction of store 9, which is not being upgraded now",
        a.message());
  }

  @Test
  void anEvictionOnAnotherStoreEndsEvenWhileThePodIsRecreated() {
    World w = old().evicting(0, NOW);
    w.pods.partition(2).without(2);
    assertEquals(new TikvActions.EndEvict("1", "basic-tikv-0"), act(w.decide()).action());
  }

  // --- after the restart ---

  @Test
  void anUpgradedPodThatIsNotReadyHoldsTheUpgrade() {
    World w = old().evicting(2, NOW);
    w.pods.partition(2).notReady(2, NEW);
    assertEquals(
        MemberDecision.waitFor("waiting for upgraded pod basic-tikv-2 to be Ready (1 of 3 done)"),
        w.decide());
  }

  @Test
  void anUpgradedPodMustStayReadyForTheMinReadySeconds() {
    World w = topReplaced(NOW.minusSeconds(59)).evicting(2, NOW);
    w.minReadySeconds = 60;
    waits(w.decide(), "basic-tikv-2 to stay Ready for 60 s", "tikv-min-ready-seconds",
        "1 of 3 done");

    w = topReplaced(NOW.minusSeconds(60)).evicting(2, NOW);
    w.minReadySeconds = 60;
    assertEquals(new TikvActions.EndEvict("3", "basic-tikv-2"), act(w.decide()).action());
  }

  @Test
  void theUpgradedStoreMustBeUp() {
    World w = topReplaced(Rollouts.LONG_AGO).store(2, "Down", 0).evicting(2, NOW);
    assertEquals(
        MemberDecision.waitFor(
            "waiting for the store of upgraded pod basic-tikv-2 to be Up (store 3 is Down)"
                + " (1 of 3 done)"),
        w.decide());

    w = topReplaced(Rollouts.LONG_AGO).noStore(2);
    assertEquals(
        MemberDecision.waitFor(
            "waiting for the store of upgraded pod basic-tikv-2 to be Up (1 of 3 done)"),
        w.decide());
  }

  @Test
  void theEvictionEndsOnceTheUpgradedStoreIsUp() {
    World w = topReplaced(Rollouts.LONG_AGO).evicting(2, NOW);
    MemberDecision.Act a = act(w.decide());
    assertEquals(new TikvActions.EndEvict("3", "basic-tikv-2"), a.action());
    assertEquals(
        "ending leader eviction of upgraded store 3 (basic-tikv-2) so leaders can return"
            + " (1 of 3 done)",
        a.message());
  }

  @Test
  void theUpgradeWaitsForTwoThirdsOfTheLeadersToReturn() {
    World w = topReplaced(NOW.minusSeconds(10)).store(2, "Up", 199);
    w.leadersBefore.put("3", 300);
    assertEquals(
        MemberDecision.waitFor(
            "waiting for region leaders to return to upgraded store 3 (basic-tikv-2): 199 of"
                + " the 300 it had, waiting for two thirds (1 of 3 done)"),
        w.decide());

    w.store(2, "Up", 200);
    assertEquals(new TikvActions.BeginEvict("2", "basic-tikv-1", 200, true),
        act(w.decide()).action());
  }

  @Test
  void fewerThan200LeadersBeforeAreNotWaitedFor() {
    World w = topReplaced(NOW.minusSeconds(10)).store(2, "Up", 0);
    w.leadersBefore.put("3", 199);
    assertEquals(TikvActions.BeginEvict.class, act(w.decide()).action().getClass());

    w.leadersBefore.put("3", 200);
    waits(w.decide(), "0 of the 200 it had");
  }

  @Test
  void noRecordedLeaderCountIsNotWaitedFor() {
    World w = topReplaced(NOW.minusSeconds(10)).store(2, "Up", 0);
    w.leadersBefore.put("2", 1000);
    assertEquals(new TikvActions.BeginEvict("2", "basic-tikv-1", 200, true),
        act(w.decide()).action());
  }

  @Test
  void theWaitForLeadersGivesUpAfterTheTimeout() {
    World w = topReplaced(NOW.minus(WAIT_BACK_TIMEOUT)).store(2, "Up", 0);
    w.leadersBefore.put("3", 300);
    assertEquals(TikvActions.BeginEvict.class, act(w.decide()).action().getClass());

    w = topReplaced(NOW.minus(WAIT_BACK_TIMEOUT).plusSeconds(1)).store(2, "Up", 0);
    w.leadersBefore.put("3", 300);
    waits(w.decide(), "0 of the 300");
  }

  @Test
  void twoThirdsRoundsDownAsUpstreamDoes() {
    World w = topReplaced(NOW.minusSeconds(10)).store(2, "Up", 133);
    w.leadersBefore.put("3", 200);
    assertEquals(TikvActions.BeginEvict.class, act(w.decide()).action().getClass(),
        "133 of 200 is two thirds, rounded down");
    w.store(2, "Up", 132);
    waits(w.decide(), "132 of the 200 it had");
  }

  @Test
  void aLargeLeaderCountDoesNotOverflowTheTwoThirdsRule() {
    World w = topReplaced(NOW.minusSeconds(10)).store(2, "Up", 1_000_000_000);
    w.leadersBefore.put("3", 1_500_000_000);
    assertEquals(TikvActions.BeginEvict.class, act(w.decide()).action().getClass());
  }

  @Test
  void theNextPodFollowsOnceTheUpgradedOneIsSettled() {
    World w = topReplaced(Rollouts.LONG_AGO);
    assertEquals(new TikvActions.BeginEvict("2", "basic-tikv-1", 200, true),
        act(w.decide()).action());
    w.store(1, "Up", 0).evicting(1, NOW);
    assertEquals(
        new MemberDecision.Roll(1, "upgrading basic-tikv-1 (store 2), 1 of 3 done"), w.decide());
  }

  @Test
  void everyPodUpgradedAndSettledIsIdle() {
    World w = new World();
    w.pods.partition(0).allReady(NEW);
    assertEquals(MemberDecision.IDLE, w.decide());
  }

  @Test
  void aLeftoverEvictionEndsWhenEveryPodIsUpgraded() {
    World w = new World();
    w.pods.partition(0).allReady(NEW);
    w.evicting.add("9");
    MemberDecision.Act a = act(w.decide());
    assertEquals(new TikvActions.EndEvict("9", null), a.action());
  }
}
