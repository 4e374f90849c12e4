package io.tidb.operator.controller.tidbcluster.pd;

import static io.tidb.operator.controller.fixtures.Rollouts.NEW;
import static io.tidb.operator.controller.fixtures.Rollouts.NOW;
import static io.tidb.operator.controller.fixtures.Rollouts.OLD;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tidb.operator.api.v1alpha1.cluster.PdMember;
import io.tidb.operator.controller.fixtures.Rollouts;
import io.tidb.operator.controller.tidbcluster.member.MemberDecision;
import io.tidb.operator.controller.tidbcluster.member.Rollout;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class PdUpgradeTest {

  private static PdMember member(String name, Boolean health) {
    PdMember m = new PdMember();
    m.setName(name);
    m.setHealth(health);
    return m;
  }

  /** What PD and the pods report, changed field by field in each test. */
  private static final class World {
    Rollout rollout;
    final Map<String, PdMember> members = new TreeMap<>();
    final Map<String, PdMember> peers = new TreeMap<>();
    String leader = "basic-pd-0";
    final Set<String> regionsLoaded = new TreeSet<>();
    long minReadySeconds;
    boolean checkQuorum;

    World(Rollouts.Builder rollout, int members) {
      this.rollout = rollout.build();
      for (int i = 0; i < members; i++) {
        this.members.put("basic-pd-" + i, member("basic-pd-" + i, true));
        regionsLoaded.add("basic-pd-" + i);
      }
    }

    World unhealthy(String name) {
      members.put(name, member(name, false));
      return this;
    }

    MemberDecision decide() {
      return PdUpgrade.decide(
          new PdUpgrade.Facts(
              rollout,
              members,
              peers,
              Optional.ofNullable(leader),
              regionsLoaded,
              minReadySeconds,
              checkQuorum,
              NOW));
    }
  }

  private static Rollouts.Builder pd(int replicas) {
    return Rollouts.rollout("basic-pd", replicas);
  }

  private static World oldCluster() {
    return new World(pd(3).allReady(OLD), 3);
  }

  /** basic-pd-2 upgraded and settled, basic-pd-0 and 1 still old; the partition is at 2. */
  private static World topUpgraded() {
    return new World(pd(3).partition(2).ready(0, OLD).ready(1, OLD).ready(2, NEW), 3);
  }

  private static MemberDecision.Wait waits(MemberDecision d, String... parts) {
    MemberDecision.Wait w = assertInstanceOf(MemberDecision.Wait.class, d, d::toString);
    for (String part : parts) {
      assertTrue(w.message().contains(part), () -> w.message() + " lacks " + part);
    }
    return w;
  }

  @Test
  void theHighestOrdinalIsUpgradedFirst() {
    assertEquals(new MemberDecision.Roll(2, "upgrading basic-pd-2 (0 of 3 done)"),
        oldCluster().decide());
  }

  @Test
  void onceTheTopPodIsSettledTheNextOneIsUpgraded() {
    assertEquals(new MemberDecision.Roll(1, "upgrading basic-pd-1 (1 of 3 done)"),
        topUpgraded().decide());
  }

  @Test
  void everyPodUpgradedAndSettledIsIdle() {
    World w = new World(pd(3).partition(0).allReady(NEW), 3);
    assertEquals(MemberDecision.IDLE, w.decide());
  }

  @Test
  void aMissingPodIsWaitedFor() {
    World w = new World(pd(3).partition(2).ready(0, OLD).ready(1, OLD), 3);
    waits(w.decide(), "waiting for pod basic-pd-2 to be recreated", "(0 of 3 done)");
  }

  @Test
  void aTerminatingPodIsWaitedFor() {
    World w = new World(pd(3).partition(2).ready(0, OLD).ready(1, OLD).terminating(2, OLD), 3);
    waits(w.decide(), "waiting for pod basic-pd-2 to be recreated");
  }

  @Test
  void aPartitionAlreadyLoweredWaitsForTheStatefulSetController() {
    World w = new World(pd(3).partition(2).allReady(OLD), 3);
    waits(w.decide(), "waiting for the StatefulSet controller to replace pod basic-pd-2");
    w = new World(pd(3).partition(0).ready(0, OLD).ready(1, OLD).ready(2, NEW), 3);
    waits(w.decide(), "StatefulSet controller to replace pod basic-pd-1", "(1 of 3 done)");
  }

  @Test
  void anUpgradedPodThatIsNotReadyHoldsTheUpgrade() {
    World w = new World(pd(3).partition(2).ready(0, OLD).ready(1, OLD).notReady(2, NEW), 3);
    waits(w.decide(), "waiting for upgraded pod basic-pd-2 to be Ready", "(1 of 3 done)");
  }

  @Test
  void anUpgradedPodMustStayReadyForTheMinReadySeconds() {
    World w =
        new World(
            pd(3).partition(2).ready(0, OLD).ready(1, OLD).readySince(2, NEW, NOW.minusSeconds(29)),
            3);
    w.minReadySeconds = 30;
    waits(w.decide(), "basic-pd-2 to stay Ready for 30 s", "pd-min-ready-seconds");

    w.rollout = pd(3).partition(2).ready(0, OLD).ready(1, OLD)
        .readySince(2, NEW, NOW.minusSeconds(30)).build();
    assertEquals(MemberDecision.Roll.class, w.decide().getClass());
  }

  @Test
  void anUpgradedMemberPdReportsUnhealthyHoldsTheUpgrade() {
    World w = topUpgraded().unhealthy("basic-pd-2");
    waits(w.decide(), "waiting for PD to report upgraded member basic-pd-2 healthy");
    w = topUpgraded();
    w.members.remove("basic-pd-2");
    waits(w.decide(), "upgraded member basic-pd-2 healthy");
  }

  @Test
  void anUpgradedMemberThatHasNotLoadedItsRegionsHoldsTheUpgrade() {
    World w = topUpgraded();
    w.regionsLoaded.remove("basic-pd-2");
    waits(w.decide(), "upgraded member basic-pd-2 to load its regions", "/pd/api/v2/ready");
  }

  @Test
  void theLeaderHandsOverToTheHighestHealthyUpgradedMember() {
    World w =
        new World(pd(5).partition(3).ready(0, OLD).ready(1, OLD).ready(2, OLD).ready(3, NEW)
            .ready(4, NEW), 5);
    w.leader = "basic-pd-2";
    MemberDecision.Act a = assertInstanceOf(MemberDecision.Act.class, w.decide());
    assertEquals(new PdActions.TransferLeader("basic-pd-2", "basic-pd-4"), a.action());
    assertEquals(
        "moving PD leadership from basic-pd-2 to basic-pd-4 before basic-pd-2 is upgraded"
            + " (2 of 5 done)",
        a.message());
  }

  @Test
  void withNoUpgradedMemberTheLeaderHandsOverToTheLowestHealthyOne() {
    World w = oldCluster();
    w.leader = "basic-pd-2";
    MemberDecision.Act a = assertInstanceOf(MemberDecision.Act.class, w.decide());
    assertEquals(new PdActions.TransferLeader("basic-pd-2", "basic-pd-0"), a.action());

    w.unhealthy("basic-pd-0");
    a = assertInstanceOf(MemberDecision.Act.class, w.decide());
    assertEquals(new PdActions.TransferLeader("basic-pd-2", "basic-pd-1"), a.action());
  }

  @Test
  void anUnhealthyUpgradedMemberIsNotATransferTarget() {
    // basic-pd-0 was recreated at the new revision out of turn (deleted by hand) and is unhealthy.
    World w = new World(pd(3).ready(0, NEW).ready(1, OLD).ready(2, OLD), 3);
    w.unhealthy("basic-pd-0");
    w.leader = "basic-pd-2";
    MemberDecision.Act a = assertInstanceOf(MemberDecision.Act.class, w.decide());
    assertEquals(new PdActions.TransferLeader("basic-pd-2", "basic-pd-1"), a.action());
  }

  @Test
  void theTransferTargetIsNeverTheLeaderItself() {
    // basic-pd-2 already runs the new revision but was not released: it is the only upgraded pod.
    World w = new World(pd(3).ready(0, OLD).ready(1, OLD).ready(2, NEW), 3);
    assertEquals(Optional.of("basic-pd-0"), PdUpgrade.transferTarget(
        new PdUpgrade.Facts(w.rollout, w.members, Map.of(), Optional.of("basic-pd-2"), Set.of(), 0, false,
            NOW), "basic-pd-2"));
  }

  @Test
  void aLeaderWithNoHealthyMemberToTakeOverWaits() {
    World w = oldCluster().unhealthy("basic-pd-0").unhealthy("basic-pd-1");
    w.leader = "basic-pd-2";
    waits(w.decide(), "basic-pd-2 is the PD leader and no other member is healthy",
        "before upgrading it", "(0 of 3 done)");
  }

  @Test
  void aSingleMemberLeaderIsUpgradedWithoutATransfer() {
    World w = new World(pd(1).allReady(OLD), 1);
    assertEquals(new MemberDecision.Roll(0, "upgrading basic-pd-0 (0 of 1 done)"), w.decide());
  }

  @Test
  void aHealthyOwnMemberTakesLeadershipBeforeAnyMemberOfAnotherTidbCluster() {
    World w = oldCluster();
    w.peers.put("other-pd-0", member("other-pd-0", true));
    w.leader = "basic-pd-2";
    MemberDecision.Act a = assertInstanceOf(MemberDecision.Act.class, w.decide());
    assertEquals(new PdActions.TransferLeader("basic-pd-2", "basic-pd-0"), a.action());
  }

  @Test
  void withNoOwnMemberToTakeOverAHealthyMemberOfAnotherTidbClusterTakesLeadership() {
    World w = oldCluster().unhealthy("basic-pd-0").unhealthy("basic-pd-1");
    w.peers.put("other-pd-0", member("other-pd-0", false));
    w.peers.put("other-pd-1", member("other-pd-1", true));
    w.leader = "basic-pd-2";
    MemberDecision.Act a = assertInstanceOf(MemberDecision.Act.class, w.decide());
    assertEquals(new PdActions.TransferLeader("basic-pd-2", "other-pd-1"), a.action());
    assertTrue(a.message().contains("of another TidbCluster"), a.message());
  }

  @Test
  void aSingleMemberLeaderHandsOverToAnotherTidbClustersMemberBeforeItsUpgrade() {
    World w = new World(pd(1).allReady(OLD), 1);
    w.peers.put("other-pd-0", member("other-pd-0", true));
    MemberDecision.Act a = assertInstanceOf(MemberDecision.Act.class, w.decide());
    assertEquals(new PdActions.TransferLeader("basic-pd-0", "other-pd-0"), a.action());

    w.peers.put("other-pd-0", member("other-pd-0", false));
    assertEquals(new MemberDecision.Roll(0, "upgrading basic-pd-0 (0 of 1 done)"), w.decide());
  }

  @Test
  void aMemberThatIsNotTheLeaderNeedsNoTransfer() {
    World w = oldCluster();
    w.leader = null;
    assertEquals(MemberDecision.Roll.class, w.decide().getClass());
  }

  @Test
  void checkQuorumWaitsWhenTheOtherHealthyMembersAreNoMajority() {
    World w = oldCluster().unhealthy("basic-pd-1");
    w.checkQuorum = true;
    waits(w.decide(), "restarting basic-pd-2 would leave 1 healthy of 3 PD members",
        "below a majority (2)", "pd-check-quorum-before-upgrade");
  }

  @Test
  void checkQuorumCountsThePdMembersOfOtherTidbClusters() {
    // One own member, restarted, and two healthy members of another TidbCluster: a majority of 3.
    World w = new World(pd(1).allReady(OLD), 1);
    w.peers.put("other-pd-0", member("other-pd-0", true));
    w.peers.put("other-pd-1", member("other-pd-1", true));
    w.leader = null;
    w.checkQuorum = true;
    assertEquals(MemberDecision.Roll.class, w.decide().getClass());

    w.peers.put("other-pd-1", member("other-pd-1", false));
    waits(w.decide(), "restarting basic-pd-0 would leave 1 healthy of 3 PD members "
        + "(2 of other TidbClusters), below a majority (2)");
  }

  @Test
  void checkQuorumRollsWhenTheOthersStillFormAMajority() {
    World w = oldCluster();
    w.checkQuorum = true;
    assertEquals(2, assertInstanceOf(MemberDecision.Roll.class, w.decide()).partition());

    // 5 members: the 4 others with one of them unhealthy still leave 3, a majority.
    w = new World(pd(5).allReady(OLD), 5).unhealthy("basic-pd-1");
    w.checkQuorum = true;
    assertEquals(4, assertInstanceOf(MemberDecision.Roll.class, w.decide()).partition());
    w.unhealthy("basic-pd-0");
    waits(w.decide(), "2 healthy of 5", "majority (3)");
  }

  @Test
  void theRestartedMemberItselfDoesNotCountTowardsTheQuorum() {
    World w = oldCluster().unhealthy("basic-pd-2");
    w.checkQuorum = true;
    assertEquals(2, assertInstanceOf(MemberDecision.Roll.class, w.decide()).partition());
  }

  @Test
  void withoutCheckQuorumAnUnhealthyPeerDoesNotHoldTheRoll() {
    World w = oldCluster().unhealthy("basic-pd-1");
    assertEquals(2, assertInstanceOf(MemberDecision.Roll.class, w.decide()).partition());
  }

  @Test
  void readinessIsAskedOfReadyHealthyUpgradedPodsOnly() {
    Rollout r =
        pd(4)
            .ready(0, NEW)
            .notReady(1, NEW)
            .ready(2, OLD)
            .ready(3, NEW)
            .pod(Rollouts.pod("basic-pd", 4, NEW, Optional.of(NOW), NOW))
            .build();
    Map<String, PdMember> members = new TreeMap<>();
    for (int i = 0; i < 5; i++) {
      members.put("basic-pd-" + i, member("basic-pd-" + i, i != 3));
    }
    assertEquals(Set.of("basic-pd-0"), PdUpgrade.readinessCandidates(r, members));
  }
}
