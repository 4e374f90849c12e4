package io.tidb.operator.controller.tidbcluster.tiflash;

import static io.tidb.operator.controller.fixtures.Rollouts.NEW;
import static io.tidb.operator.controller.fixtures.Rollouts.NOW;
import static io.tidb.operator.controller.fixtures.Rollouts.OLD;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tidb.operator.controller.fixtures.Rollouts;
import io.tidb.operator.controller.tidbcluster.member.MemberDecision;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Decision table of TiFlash's rolling upgrade. */
class TiflashUpgradeTest {

  private static TiflashStores stores(String... podState) {
    Map<String, TiflashStores.Store> live = new TreeMap<>();
    for (int i = 0; i < podState.length; i += 2) {
      live.put(podState[i], new TiflashStores.Store("1" + i, podState[i], podState[i + 1]));
    }
    return new TiflashStores(live, Set.of());
  }

  private static final TiflashStores ALL_UP =
      stores("basic-tiflash-0", "Up", "basic-tiflash-1", "Up", "basic-tiflash-2", "Up");

  private static MemberDecision decide(Rollouts.Builder pods, TiflashStores s, long minReady) {
    return TiflashUpgrade.decide(new TiflashUpgrade.Facts(pods.build(), s, minReady, NOW));
  }

  @Test
  void theHighestOrdinalIsUpgradedFirst() {
    assertEquals(new MemberDecision.Roll(2, "upgrading basic-tiflash-2 (0 of 3 done)"),
        decide(Rollouts.rollout("basic-tiflash", 3).allReady(OLD), ALL_UP, 0));
  }

  @Test
  void theNextPodWaitsUntilTheUpgradedStoreIsUpInPd() {
    Rollouts.Builder pods = Rollouts.rollout("basic-tiflash", 3).partition(2)
        .ready(0, OLD).ready(1, OLD).ready(2, NEW);
    TiflashStores disconnected =
        stores("basic-tiflash-0", "Up", "basic-tiflash-1", "Up", "basic-tiflash-2", "Disconnected");
    assertEquals(
        MemberDecision.waitFor("waiting for upgraded TiFlash store 14 (basic-tiflash-2) to be Up"
            + " in PD, it is Disconnected (1 of 3 done)"),
        decide(pods, disconnected, 0));
    assertEquals(new MemberDecision.Roll(1, "upgrading basic-tiflash-1 (1 of 3 done)"),
        decide(pods, ALL_UP, 0));
  }

  @Test
  void anUpgradedPodMustBeReadyAndStayReadyForTheMinReadySeconds() {
    Rollouts.Builder notReady = Rollouts.rollout("basic-tiflash", 3).partition(2)
        .ready(0, OLD).ready(1, OLD).notReady(2, NEW);
    assertEquals(MemberDecision.waitFor("waiting for upgraded pod basic-tiflash-2 to be Ready (1 of 3 done)"),
        decide(notReady, ALL_UP, 0));
    Rollouts.Builder fresh = Rollouts.rollout("basic-tiflash", 3).partition(2)
        .ready(0, OLD).ready(1, OLD).readySince(2, NEW, NOW.minusSeconds(5));
    assertEquals(
        MemberDecision.waitFor("waiting for upgraded pod basic-tiflash-2 to stay Ready for 30 s"
            + " (tidb.pingcap.com/tiflash-min-ready-seconds; 1 of 3 done)"),
        decide(fresh, ALL_UP, 30));
  }

  @Test
  void aReleasedPodIsLeftToTheStatefulSetController() {
    Rollouts.Builder pods = Rollouts.rollout("basic-tiflash", 3).partition(2).allReady(OLD);
    assertEquals(
        MemberDecision.waitFor("waiting for the StatefulSet controller to replace pod"
            + " basic-tiflash-2 (0 of 3 done)"),
        decide(pods, ALL_UP, 0));
  }

  @Test
  void aMissingPodIsWaitedFor() {
    Rollouts.Builder pods = Rollouts.rollout("basic-tiflash", 3).partition(2)
        .ready(0, OLD).ready(1, OLD);
    assertEquals(
        MemberDecision.waitFor("waiting for pod basic-tiflash-2 to be recreated (0 of 3 done)"),
        decide(pods, ALL_UP, 0));
  }

  @Test
  void everyPodUpgradedAndUpIsIdle() {
    assertEquals(MemberDecision.IDLE,
        decide(Rollouts.rollout("basic-tiflash", 3).partition(0).allReady(NEW), ALL_UP, 0));
  }
}
