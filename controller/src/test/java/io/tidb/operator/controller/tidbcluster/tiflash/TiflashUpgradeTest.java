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

  private static MemberDecision decideWithStatus(Rollouts.Builder pods,
      Map<String, TiflashUpgrade.StoreStatus> answers) {
    return TiflashUpgrade.decide(
        new TiflashUpgrade.Facts(pods.build(), ALL_UP, 0, NOW, true, answers));
  }

  @Test
  void fromV512TheUpgradedStoreMustReportRunningOnItsOwnStoreStatus() {
    Rollouts.Builder pods = Rollouts.rollout("basic-tiflash", 3).partition(2)
        .ready(0, OLD).ready(1, OLD).ready(2, NEW);
    assertEquals(java.util.List.of("basic-tiflash-2"),
        TiflashUpgrade.toAsk(pods.build(), ALL_UP, 0, NOW));
    assertEquals(
        MemberDecision.waitFor("waiting for upgraded TiFlash store 14 (basic-tiflash-2) to report"
            + " Running on /tiflash/store-status, it reports Ready (1 of 3 done)"),
        decideWithStatus(pods, Map.of("basic-tiflash-2", TiflashUpgrade.StoreStatus.of("Ready"))));
    assertEquals(
        MemberDecision.waitFor("waiting for upgraded TiFlash store 14 (basic-tiflash-2) to answer"
            + " /tiflash/store-status (connection refused) (1 of 3 done)"),
        decideWithStatus(pods,
            Map.of("basic-tiflash-2", TiflashUpgrade.StoreStatus.failed("connection refused"))));
    assertEquals(new MemberDecision.Roll(1, "upgrading basic-tiflash-1 (1 of 3 done)"),
        decideWithStatus(pods, Map.of("basic-tiflash-2", TiflashUpgrade.StoreStatus.of("Running"))));
    assertEquals(new MemberDecision.Roll(1, "upgrading basic-tiflash-1 (1 of 3 done)"),
        decide(pods, ALL_UP, 0), "before v5.1.2 the status is not asked");
  }

  @Test
  void onlyUpgradedPodsThatPassedTheOtherChecksAreAsked() {
    Rollouts.Builder pods = Rollouts.rollout("basic-tiflash", 3).partition(1)
        .ready(0, OLD).notReady(1, NEW).ready(2, NEW);
    TiflashStores twoDisconnected =
        stores("basic-tiflash-0", "Up", "basic-tiflash-1", "Up", "basic-tiflash-2", "Disconnected");
    assertEquals(java.util.List.of(), TiflashUpgrade.toAsk(pods.build(), twoDisconnected, 0, NOW));
    assertEquals(java.util.List.of("basic-tiflash-2"),
        TiflashUpgrade.toAsk(pods.build(), ALL_UP, 0, NOW));
  }

  @Test
  void theStoreStatusIsAskedFromV512AndOfLatest() {
    assertEquals(true, TiflashVersion.reportsStoreStatus("v5.1.2"));
    assertEquals(true, TiflashVersion.reportsStoreStatus("v8.5.0"));
    assertEquals(true, TiflashVersion.reportsStoreStatus("latest"));
    assertEquals(true, TiflashVersion.reportsStoreStatus("nightly-2025"));
    assertEquals(false, TiflashVersion.reportsStoreStatus("v5.1.1"));
    assertEquals(false, TiflashVersion.reportsStoreStatus("v4.0.16"));
    assertEquals(false, TiflashVersion.reportsStoreStatus("custom"));
    assertEquals(false, TiflashVersion.reportsStoreStatus(null));
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
