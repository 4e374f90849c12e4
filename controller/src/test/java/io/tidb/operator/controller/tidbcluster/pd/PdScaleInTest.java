package io.tidb.operator.controller.tidbcluster.pd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tidb.operator.api.v1alpha1.cluster.PdMember;
import io.tidb.operator.controller.tidbcluster.member.MemberDecision;
import io.tidb.operator.controller.tidbcluster.member.MemberStep;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class PdScaleInTest {

  private static final Optional<String> ALONE = Optional.empty();
  private static final Optional<String> WITH_TIKV_AND_TIDB = Optional.of("TiKV, TiDB");

  private static PdMember member(String name, Boolean health) {
    PdMember m = new PdMember();
    m.setName(name);
    m.setHealth(health);
    return m;
  }

  /** Members basic-pd-0 … basic-pd-(n-1), in that order, all healthy. */
  private static Map<String, PdMember> healthy(int n) {
    Map<String, PdMember> members = new LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      members.put("basic-pd-" + i, member("basic-pd-" + i, true));
    }
    return members;
  }

  private static MemberDecision decide(
      int current, int wanted, Optional<String> others, Map<String, PdMember> members,
      String leader) {
    return decide(current, wanted, others, members, Map.of(), leader);
  }

  private static MemberDecision decide(
      int current, int wanted, Optional<String> others, Map<String, PdMember> members,
      Map<String, PdMember> peers, String leader) {
    return PdScaleIn.decide(
        new PdScaleIn.Facts(
            "basic", current, wanted, others, members, peers, Optional.ofNullable(leader)));
  }

  /** PD members of another TidbCluster in the same PD cluster, by name. */
  private static Map<String, PdMember> peers(PdMember... members) {
    Map<String, PdMember> peers = new LinkedHashMap<>();
    for (PdMember m : members) {
      peers.put(m.getName(), m);
    }
    return peers;
  }

  private static MemberDecision.Act act(MemberDecision d) {
    return assertInstanceOf(MemberDecision.Act.class, d, () -> d.toString());
  }

  @Test
  void pdToZeroIsRefusedWhileOtherComponentsUseIt() {
    MemberDecision d = decide(1, 0, WITH_TIKV_AND_TIDB, healthy(1), "basic-pd-0");
    MemberDecision.Blocked b = assertInstanceOf(MemberDecision.Blocked.class, d);
    assertEquals(MemberStep.FAILED_SCALE_IN, b.reason());
    assertEquals("FailedScaleIn", b.reason());
    assertTrue(b.message().contains("spec.pd.replicas is 0"), b.message());
    assertTrue(b.message().contains("TiKV, TiDB"), b.message());
  }

  @Test
  void pdToZeroIsRefusedEvenWhenTheLastMemberHasLeft() {
    MemberDecision d = decide(1, 0, WITH_TIKV_AND_TIDB, Map.of(), null);
    assertInstanceOf(MemberDecision.Blocked.class, d);
  }

  @Test
  void pdAloneMayGoToZeroAndItsLastMemberIsRemovedWithoutALeaderTransfer() {
    MemberDecision.Act a = act(decide(1, 0, ALONE, healthy(1), "basic-pd-0"));
    assertEquals(new PdActions.DeleteMember("basic-pd-0"), a.action());
    assertTrue(a.message().contains("from 1 to 0"), a.message());
  }

  @Test
  void aNonZeroTargetIsNotRefusedBecauseOfOtherComponents() {
    MemberDecision.Act a = act(decide(3, 2, WITH_TIKV_AND_TIDB, healthy(3), "basic-pd-0"));
    assertEquals(new PdActions.DeleteMember("basic-pd-2"), a.action());
  }

  @Test
  void theHighestOrdinalIsRemovedFromPdFirst() {
    MemberDecision.Act a = act(decide(5, 3, WITH_TIKV_AND_TIDB, healthy(5), "basic-pd-0"));
    assertEquals(new PdActions.DeleteMember("basic-pd-4"), a.action());
    assertEquals("PDMemberDeleted", a.action().reason());
    assertEquals(
        "removing member basic-pd-4 from the PD cluster (scale-in from 5 to 3)", a.message());
  }

  @Test
  void onceTheMemberHasLeftPdTheStatefulSetShrinksByOne() {
    Map<String, PdMember> members = healthy(4);
    members.remove("basic-pd-3");
    MemberDecision d = decide(4, 2, ALONE, members, "basic-pd-0");
    MemberDecision.Resize r = assertInstanceOf(MemberDecision.Resize.class, d);
    assertEquals(3, r.replicas());
    assertTrue(r.message().startsWith("basic-pd-3 has left the PD cluster"), r.message());
    assertTrue(r.message().contains("deferred deletion"), r.message());
  }

  @Test
  void theLastMemberThatHasLeftShrinksTheStatefulSetToZero() {
    MemberDecision d = decide(1, 0, ALONE, Map.of(), null);
    assertEquals(0, assertInstanceOf(MemberDecision.Resize.class, d).replicas());
  }

  @Test
  void aLeaderBeingRemovedHandsLeadershipToTheMemberOneOrdinalBelow() {
    MemberDecision.Act a = act(decide(3, 2, ALONE, healthy(3), "basic-pd-2"));
    assertEquals(new PdActions.TransferLeader("basic-pd-2", "basic-pd-1"), a.action());
    assertEquals("PDLeaderTransferred", a.action().reason());
    assertEquals(
        "moving PD leadership from basic-pd-2 to basic-pd-1 before basic-pd-2 is removed"
            + " (scale-in to 2)",
        a.message());
  }

  @Test
  void whenTheMemberBelowIsUnhealthyTheLowestHealthyMemberTakesOver() {
    Map<String, PdMember> members = new LinkedHashMap<>();
    members.put("basic-pd-3", member("basic-pd-3", true));
    members.put("basic-pd-2", member("basic-pd-2", false));
    members.put("basic-pd-1", member("basic-pd-1", true));
    members.put("basic-pd-0", member("basic-pd-0", true));
    MemberDecision.Act a = act(decide(4, 3, ALONE, members, "basic-pd-3"));
    assertEquals(new PdActions.TransferLeader("basic-pd-3", "basic-pd-0"), a.action());
  }

  @Test
  void theLowestHealthyMemberIsTheLowestOrdinalNotTheFirstName() {
    // 13 members: "basic-pd-10" sorts before "basic-pd-2" by name, but 2 is the lower ordinal.
    Map<String, PdMember> members = new LinkedHashMap<>();
    for (int i = 12; i >= 0; i--) {
      members.put("basic-pd-" + i, member("basic-pd-" + i, i != 11 && i != 0 && i != 1));
    }
    MemberDecision.Act a = act(decide(13, 12, ALONE, members, "basic-pd-12"));
    assertEquals(new PdActions.TransferLeader("basic-pd-12", "basic-pd-2"), a.action());
  }

  @Test
  void aMemberNamedOutsideThePodConventionComesLast() {
    Map<String, PdMember> members = new LinkedHashMap<>();
    members.put("a", member("a", true));
    members.put("basic-pd-0", member("basic-pd-0", false));
    members.put("basic-pd-1", member("basic-pd-1", true));
    members.put("basic-pd-2", member("basic-pd-2", false));
    members.put("basic-pd-3", member("basic-pd-3", true));
    MemberDecision.Act a = act(decide(4, 3, ALONE, members, "basic-pd-3"));
    assertEquals(new PdActions.TransferLeader("basic-pd-3", "basic-pd-1"), a.action());
    members.put("basic-pd-1", member("basic-pd-1", false));
    a = act(decide(4, 3, ALONE, members, "basic-pd-3"));
    assertEquals(new PdActions.TransferLeader("basic-pd-3", "a"), a.action());
  }

  @Test
  void aMemberWithUnknownHealthIsNotATransferTarget() {
    Map<String, PdMember> members = new LinkedHashMap<>();
    members.put("basic-pd-0", member("basic-pd-0", null));
    members.put("basic-pd-1", member("basic-pd-1", true));
    members.put("basic-pd-2", member("basic-pd-2", null));
    members.put("basic-pd-3", member("basic-pd-3", true));
    MemberDecision.Act a = act(decide(4, 3, ALONE, members, "basic-pd-3"));
    assertEquals(new PdActions.TransferLeader("basic-pd-3", "basic-pd-1"), a.action());
  }

  @Test
  void whenTheMemberBelowHasLeftPdAnotherHealthyMemberTakesOver() {
    Map<String, PdMember> members = healthy(3);
    members.remove("basic-pd-1");
    MemberDecision.Act a = act(decide(3, 1, ALONE, members, "basic-pd-2"));
    assertEquals(new PdActions.TransferLeader("basic-pd-2", "basic-pd-0"), a.action());
  }

  @Test
  void aLeaderWithNoHealthyMemberToTakeOverWaits() {
    Map<String, PdMember> members = new LinkedHashMap<>();
    members.put("basic-pd-0", member("basic-pd-0", false));
    members.put("basic-pd-1", member("basic-pd-1", false));
    members.put("basic-pd-2", member("basic-pd-2", true));
    MemberDecision d = decide(3, 2, ALONE, members, "basic-pd-2");
    MemberDecision.Wait w = assertInstanceOf(MemberDecision.Wait.class, d);
    assertTrue(w.message().startsWith("basic-pd-2 is the PD leader"), w.message());
    assertTrue(w.message().contains("no other member is healthy"), w.message());
  }

  @Test
  void aMemberThatIsNotTheLeaderIsRemovedAtOnce() {
    MemberDecision.Act a = act(decide(3, 2, ALONE, healthy(3), "basic-pd-1"));
    assertEquals(new PdActions.DeleteMember("basic-pd-2"), a.action());
    a = act(decide(3, 2, ALONE, healthy(3), null));
    assertEquals(new PdActions.DeleteMember("basic-pd-2"), a.action());
  }

  @Test
  void healthNeedsPdToSayTrue() {
    assertTrue(PdScaleIn.healthy(member("a", true)));
    assertFalse(PdScaleIn.healthy(member("a", false)));
    assertFalse(PdScaleIn.healthy(member("a", null)));
    assertFalse(PdScaleIn.healthy(null));
  }

  @Test
  void aHealthyOwnMemberTakesLeadershipBeforeAnyMemberOfAnotherTidbCluster() {
    Map<String, PdMember> peers = peers(member("other-pd-0", true), member("other-pd-1", true));
    MemberDecision.Act a =
        act(decide(3, 2, WITH_TIKV_AND_TIDB, healthy(3), peers, "basic-pd-2"));
    assertEquals(new PdActions.TransferLeader("basic-pd-2", "basic-pd-1"), a.action());

    Map<String, PdMember> members = healthy(4);
    members.put("basic-pd-1", member("basic-pd-1", false));
    members.put("basic-pd-2", member("basic-pd-2", false));
    a = act(decide(4, 3, WITH_TIKV_AND_TIDB, members, peers, "basic-pd-3"));
    assertEquals(new PdActions.TransferLeader("basic-pd-3", "basic-pd-0"), a.action());
  }

  @Test
  void withNoOwnMemberToTakeOverAHealthyMemberOfAnotherTidbClusterTakesLeadership() {
    Map<String, PdMember> members = healthy(2);
    members.put("basic-pd-0", member("basic-pd-0", false));
    Map<String, PdMember> peers =
        peers(member("other-pd-1", true), member("other-pd-0", false), member("other-pd-2", true));
    MemberDecision.Act a = act(decide(2, 1, WITH_TIKV_AND_TIDB, members, peers, "basic-pd-1"));
    assertEquals(new PdActions.TransferLeader("basic-pd-1", "other-pd-1"), a.action());
    assertTrue(a.message().contains("of another TidbCluster"), a.message());
  }

  @Test
  void theLastOwnMemberHandsLeadershipToAnotherTidbClustersMemberBeforeItIsRemoved() {
    Map<String, PdMember> peers = peers(member("other-pd-0", true));
    MemberDecision.Act a = act(decide(1, 0, ALONE, healthy(1), peers, "basic-pd-0"));
    assertEquals(new PdActions.TransferLeader("basic-pd-0", "other-pd-0"), a.action());

    a = act(decide(1, 0, ALONE, healthy(1), peers(member("other-pd-0", false)), "basic-pd-0"));
    assertEquals(new PdActions.DeleteMember("basic-pd-0"), a.action());
  }

  @Test
  void aLeaderWithNoHealthyMemberAnywhereWaits() {
    Map<String, PdMember> members = healthy(2);
    members.put("basic-pd-0", member("basic-pd-0", false));
    MemberDecision d =
        decide(2, 1, WITH_TIKV_AND_TIDB, members, peers(member("other-pd-0", null)), "basic-pd-1");
    assertInstanceOf(MemberDecision.Wait.class, d);
  }
}
