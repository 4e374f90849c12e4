package io.tidb.operator.controller.tidbcluster.tidb;

import static io.tidb.operator.controller.fixtures.Rollouts.NEW;
import static io.tidb.operator.controller.fixtures.Rollouts.NOW;
import static io.tidb.operator.controller.fixtures.Rollouts.OLD;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tidb.operator.controller.fixtures.Rollouts;
import io.tidb.operator.controller.tidbcluster.member.MemberDecision;
import io.tidb.operator.controller.tidbcluster.member.Rollout;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TidbUpgradeTest {

  private static final Set<String> ALL_HEALTHY = Set.of("basic-tidb-0", "basic-tidb-1", "basic-tidb-2");

  private static Rollouts.Builder tidb() {
    return Rollouts.rollout("basic-tidb", 3);
  }

  private static MemberDecision decide(Rollouts.Builder pods, Set<String> healthy, long minReady) {
    return TidbUpgrade.decide(new TidbUpgrade.Facts(pods.build(), healthy, minReady, NOW));
  }

  private static MemberDecision decide(Rollouts.Builder pods) {
    return decide(pods, ALL_HEALTHY, 0);
  }

  // --- scale-in ---

  @Test
  void scaleInRemovesOnePodPerPassByDefault() {
    assertEquals(
        new MemberDecision.Resize(4, "scaling in from 5 to 4 (spec.tidb.replicas is 2)"),
        TidbUpgrade.scaleIn(5, 2, 1));
  }

  @Test
  void scaleInRemovesUpToTheParallelismAtATimeButNeverPastTheSpec() {
    assertEquals(3, ((MemberDecision.Resize) TidbUpgrade.scaleIn(5, 2, 2)).replicas());
    assertEquals(
        new MemberDecision.Resize(2, "scaling in from 5 to 2 (spec.tidb.replicas is 2)"),
        TidbUpgrade.scaleIn(5, 2, 10));
    assertEquals(0, ((MemberDecision.Resize) TidbUpgrade.scaleIn(1, 0, 1)).replicas());
  }

  @Test
  void aParallelismBelowOneStillRemovesOnePod() {
    assertEquals(4, ((MemberDecision.Resize) TidbUpgrade.scaleIn(5, 2, 0)).replicas());
    assertEquals(4, ((MemberDecision.Resize) TidbUpgrade.scaleIn(5, 2, -3)).replicas());
  }

  // --- rolling upgrade ---

  @Test
  void theHighestOrdinalIsUpgradedFirst() {
    assertEquals(
        new MemberDecision.Roll(2, "upgrading basic-tidb-2 (0 of 3 done)"),
        decide(tidb().allReady(OLD)));
  }

  @Test
  void onceTheTopPodIsSettledTheNextOneIsUpgraded() {
    assertEquals(
        new MemberDecision.Roll(1, "upgrading basic-tidb-1 (1 of 3 done)"),
        decide(tidb().partition(2).ready(0, OLD).ready(1, OLD).ready(2, NEW)));
  }

  @Test
  void ordinalZeroIsUpgradedLast() {
    assertEquals(
        new MemberDecision.Roll(0, "upgrading basic-tidb-0 (2 of 3 done)"),
        decide(tidb().partition(1).ready(0, OLD).ready(1, NEW).ready(2, NEW)));
    assertEquals(
        MemberDecision.waitFor("waiting for upgraded pod basic-tidb-0 to be Ready (3 of 3 done)"),
        decide(tidb().partition(0).notReady(0, NEW).ready(1, NEW).ready(2, NEW)));
  }

  @Test
  void aMissingOrTerminatingPodIsWaitedFor() {
    assertEquals(
        MemberDecision.waitFor("waiting for pod basic-tidb-2 to be recreated (0 of 3 done)"),
        decide(tidb().partition(2).ready(0, OLD).ready(1, OLD)));
    assertEquals(
        MemberDecision.waitFor("waiting for pod basic-tidb-2 to be recreated (0 of 3 done)"),
        decide(tidb().partition(2).ready(0, OLD).ready(1, OLD).terminating(2, OLD)));
  }

  @Test
  void aPartitionAlreadyLoweredWaitsForTheStatefulSetController() {
    assertEquals(
        MemberDecision.waitFor(
            "waiting for the StatefulSet controller to replace pod basic-tidb-2 (0 of 3 done)"),
        decide(tidb().partition(2).allReady(OLD)));
  }

  @Test
  void anUpgradedPodThatIsNotReadyHoldsTheUpgrade() {
    assertEquals(
        MemberDecision.waitFor("waiting for upgraded pod basic-tidb-2 to be Ready (1 of 3 done)"),
        decide(tidb().partition(2).ready(0, OLD).ready(1, OLD).notReady(2, NEW)));
  }

  @Test
  void anUpgradedPodMustStayReadyForTheMinReadySeconds() {
    assertEquals(
        MemberDecision.waitFor(
            "waiting for upgraded pod basic-tidb-2 to stay Ready for 45 s"
                + " (tidb.pingcap.com/tidb-min-ready-seconds; 1 of 3 done)"),
        decide(
            tidb().partition(2).ready(0, OLD).ready(1, OLD).readySince(2, NEW, NOW.minusSeconds(44)),
            ALL_HEALTHY,
            45));
    assertEquals(
        new MemberDecision.Roll(1, "upgrading basic-tidb-1 (1 of 3 done)"),
        decide(
            tidb().partition(2).ready(0, OLD).ready(1, OLD).readySince(2, NEW, NOW.minusSeconds(45)),
            ALL_HEALTHY,
            45));
  }

  @Test
  void anUpgradedTidbMustAnswerItsStatusPort() {
    assertEquals(
        MemberDecision.waitFor(
            "waiting for upgraded TiDB basic-tidb-2 to answer its status port (1 of 3 done)"),
        decide(
            tidb().partition(2).ready(0, OLD).ready(1, OLD).ready(2, NEW),
            Set.of("basic-tidb-0", "basic-tidb-1"),
            0));
  }

  @Test
  void everyPodUpgradedAndSettledIsIdle() {
    assertEquals(MemberDecision.IDLE, decide(tidb().partition(0).allReady(NEW)));
  }

  @Test
  void theStatusPortIsAskedOfReadyUpgradedPodsOnly() {
    Rollout r =
        Rollouts.rollout("basic-tidb", 3)
            .ready(0, NEW)
            .notReady(1, NEW)
            .ready(2, OLD)
            .pod(Rollouts.pod("basic-tidb", 3, NEW, Optional.of(NOW), NOW))
            .build();
    assertEquals(Set.of("basic-tidb-0"), TidbUpgrade.healthCandidates(r));
  }
}
