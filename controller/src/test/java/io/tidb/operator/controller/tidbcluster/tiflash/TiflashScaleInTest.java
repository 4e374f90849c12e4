package io.tidb.operator.controller.tidbcluster.tiflash;

import static io.tidb.operator.controller.fixtures.Rollouts.NEW;
import static io.tidb.operator.controller.fixtures.Rollouts.NOW;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tidb.operator.controller.fixtures.Rollouts;
import io.tidb.operator.controller.tidbcluster.member.MemberDecision;
import io.tidb.operator.controller.tidbcluster.member.MemberStep;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Decision table of TiFlash's scale-in: delete the store, wait for Tombstone, then shrink. */
class TiflashScaleInTest {

  private static final Duration GRACE = Duration.ofMinutes(5);

  private static Rollouts.Builder three() {
    return Rollouts.rollout("basic-tiflash", 3).allReady(NEW);
  }

  private static TiflashStores stores(Map<String, String> stateByPod, Set<String> tombstones) {
    Map<String, TiflashStores.Store> live = new TreeMap<>();
    int id = 10;
    for (var e : new TreeMap<>(stateByPod).entrySet()) {
      live.put(e.getKey(), new TiflashStores.Store(Integer.toString(id++), e.getKey(), e.getValue()));
    }
    return new TiflashStores(live, tombstones);
  }

  private static MemberDecision decide(Rollouts.Builder pods, int wanted, int parallelism, TiflashStores s) {
    return decide(pods, wanted, parallelism, s, 0);
  }

  private static MemberDecision decide(
      Rollouts.Builder pods, int wanted, int parallelism, TiflashStores s, int tablesNeed) {
    return TiflashScaleIn.decide(
        new TiflashScaleIn.Facts(pods.build(), wanted, parallelism, s, GRACE, NOW, tablesNeed));
  }

  @Test
  void noStoreIsDeletedWhenTheUpStoresLeftWouldBeFewerThanATableAsksFor() {
    MemberDecision refused = decide(three(), 1, 2, stores(ALL_UP, Set.of()), 3);
    assertEquals(new MemberDecision.Blocked(MemberStep.FAILED_SCALE_IN,
        "cannot remove TiFlash store 12 (basic-tiflash-2): 3 TiFlash stores are Up and a table"
            + " asks for 3 TiFlash replicas (PD's placement rules of group tiflash), so removing"
            + " it would leave its replicas nowhere to go. Nothing is removed: set"
            + " spec.tiflash.replicas back to 3, or lower the tables' TiFlash replica count"
            + " (ALTER TABLE ... SET TIFLASH REPLICA) first"), refused);
  }

  @Test
  void withTwoStoresToRemoveOnlyAsManyAreDeletedAsTheTablesLeaveRoomFor() {
    // 3 Up, tables need 2: one store may go (3 -> 2), the second (2 -> 1) is refused.
    assertEquals(
        new MemberDecision.Act(new TiflashActions.DeleteStore("12", "basic-tiflash-2"),
            "deleting TiFlash store 12 (basic-tiflash-2) from PD: it goes Offline while PD moves"
                + " its replicas away (scale-in from 3 to 1)"),
        decide(three(), 1, 2, stores(ALL_UP, Set.of()), 2));
    Map<String, String> states = new TreeMap<>(ALL_UP);
    states.put("basic-tiflash-2", "Offline");
    MemberDecision next = decide(three(), 1, 2, stores(states, Set.of()), 2);
    assertEquals(MemberDecision.waitFor("TiFlash store 12 (basic-tiflash-2) is Offline; scale-in"
        + " continues when PD reports it Tombstone"), next,
        "the Offline store is waited for; the next is not deleted while only 2 are Up");
    Map<String, String> two = Map.of("basic-tiflash-0", "Up", "basic-tiflash-1", "Up");
    assertTrue(decide(Rollouts.rollout("basic-tiflash", 2).allReady(NEW), 1, 1,
        stores(two, Set.of()), 2) instanceof MemberDecision.Blocked);
  }

  private static final Map<String, String> ALL_UP =
      Map.of("basic-tiflash-0", "Up", "basic-tiflash-1", "Up", "basic-tiflash-2", "Up");

  @Test
  void anUpStoreOfTheHighestOrdinalIsDeletedFirst() {
    assertEquals(
        new MemberDecision.Act(new TiflashActions.DeleteStore("12", "basic-tiflash-2"),
            "deleting TiFlash store 12 (basic-tiflash-2) from PD: it goes Offline while PD moves"
                + " its replicas away (scale-in from 3 to 2)"),
        decide(three(), 2, 1, stores(ALL_UP, Set.of())));
  }

  @Test
  void anOfflineStoreIsWaitedForWithoutDeletingAgain() {
    Map<String, String> states = new TreeMap<>(ALL_UP);
    states.put("basic-tiflash-2", "Offline");
    assertEquals(
        MemberDecision.waitFor("TiFlash store 12 (basic-tiflash-2) is Offline; scale-in continues"
            + " when PD reports it Tombstone"),
        decide(three(), 2, 1, stores(states, Set.of())));
  }

  @Test
  void aTombstoneStoreLetsTheStatefulSetShrink() {
    Map<String, String> states = Map.of("basic-tiflash-0", "Up", "basic-tiflash-1", "Up");
    assertEquals(
        new MemberDecision.Resize(2, "pod basic-tiflash-2 has no TiFlash store left in PD;"
            + " removing it (volumes are kept, marked for deferred deletion)"),
        decide(three(), 2, 1, stores(states, Set.of("basic-tiflash-2"))));
  }

  @Test
  void aReadyPodWithoutAStoreIsGivenTimeToRegister() {
    Map<String, String> states = Map.of("basic-tiflash-0", "Up", "basic-tiflash-1", "Up");
    assertEquals(
        MemberDecision.waitFor("PD lists no TiFlash store for basic-tiflash-2 yet; waiting for it"
            + " to register before removing it"),
        decide(three(), 2, 1, stores(states, Set.of())));
  }

  @Test
  void aPodNeverReadyPastTheGraceIsRemovedWithoutAStore() {
    Map<String, String> states = Map.of("basic-tiflash-0", "Up", "basic-tiflash-1", "Up");
    Rollouts.Builder pods = three().notReady(2, NEW);
    assertEquals(2, ((MemberDecision.Resize) decide(pods, 2, 1, stores(states, Set.of()))).replicas());
  }

  @Test
  void aPodNotReadyWithinTheGraceIsWaitedFor() {
    Map<String, String> states = Map.of("basic-tiflash-0", "Up", "basic-tiflash-1", "Up");
    Rollouts.Builder pods = three().pod(Rollouts.pod("basic-tiflash", 2, NEW, Optional.empty(), NOW.minusSeconds(60)));
    assertEquals(
        MemberDecision.waitFor("PD lists no TiFlash store for basic-tiflash-2 yet; waiting up to"
            + " 300 s after its creation in case it registers before removing it"),
        decide(pods, 2, 1, stores(states, Set.of())));
  }

  @Test
  void withParallelismTwoOnlyContiguousTombstonesFromTheTopShrinkTheSet() {
    Map<String, String> states = Map.of("basic-tiflash-0", "Up", "basic-tiflash-1", "Offline");
    assertEquals(
        new MemberDecision.Resize(2, "pod basic-tiflash-2 has no TiFlash store left in PD;"
            + " removing it (volumes are kept, marked for deferred deletion)"),
        decide(three(), 1, 2, stores(states, Set.of("basic-tiflash-2"))));
    Map<String, String> upperOffline = Map.of("basic-tiflash-0", "Up", "basic-tiflash-2", "Offline");
    assertEquals(
        MemberDecision.waitFor("TiFlash store 11 (basic-tiflash-2) is Offline; scale-in continues"
            + " when PD reports it Tombstone"),
        decide(three(), 1, 2, stores(upperOffline, Set.of("basic-tiflash-1"))));
  }

  @Test
  void nothingToRemoveIsIdle() {
    assertEquals(MemberDecision.IDLE, decide(three(), 3, 1, stores(ALL_UP, Set.of())));
  }
}
