package io.tidb.operator.controller.tidbcluster.pd;

import static io.tidb.operator.controller.fixtures.Rollouts.LONG_AGO;
import static io.tidb.operator.controller.fixtures.Rollouts.NOW;
import static io.tidb.operator.controller.fixtures.Rollouts.OLD;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.tidb.operator.api.v1alpha1.cluster.PdMember;
import io.tidb.operator.controller.fixtures.Rollouts;
import io.tidb.operator.controller.runtime.Conditions;
import io.tidb.operator.controller.tidbcluster.member.MemberDecision;
import io.tidb.operator.controller.tidbcluster.member.ObservedPod;
import io.tidb.operator.controller.tidbcluster.member.PodActions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class PdTransferLeaderAnnotationTest {

  private static final String KEY = PdTransferLeaderAnnotation.KEY;

  /** Three healthy PD members, basic-pd-2 leads. */
  private static final class World {
    final Rollouts.Builder pods = Rollouts.rollout("basic-pd", 3).allReady(OLD);
    final Map<String, PdMember> members = new LinkedHashMap<>();
    Optional<String> leader = Optional.of("basic-pd-2");

    World() {
      for (int i = 0; i < 3; i++) {
        health(i, true);
      }
    }

    World health(int ordinal, boolean healthy) {
      PdMember m = new PdMember();
      m.setName("basic-pd-" + ordinal);
      m.setHealth(healthy);
      members.put(m.getName(), m);
      return this;
    }

    World annotate(int ordinal, Map<String, String> annotations, boolean terminating) {
      pods.pod(new ObservedPod(ordinal, "basic-pd-" + ordinal, "uid-" + ordinal, OLD,
          Optional.of(LONG_AGO), LONG_AGO, terminating, annotations));
      return this;
    }

    World annotate(int ordinal, String value) {
      return annotate(ordinal, Map.of(KEY, value), false);
    }

    MemberDecision decide() {
      return PdTransferLeaderAnnotation.decide(
          new PdTransferLeaderAnnotation.Facts(pods.build(), members, leader, NOW));
    }
  }

  private static MemberDecision.Act act(MemberDecision d) {
    return assertInstanceOf(MemberDecision.Act.class, d, d::toString);
  }

  @Test
  void noAnnotationNothingToDo() {
    assertEquals(MemberDecision.IDLE, new World().decide());
  }

  @Test
  void theAnnotatedLeaderHandsLeadershipToTheLowestHealthyMember() {
    MemberDecision.Act a = act(new World().annotate(2, "none").decide());
    assertEquals(new PdActions.TransferLeader("basic-pd-2", "basic-pd-0"), a.action());
    assertEquals("PDLeaderTransferred", a.action().reason());
    assertEquals(
        "moving PD leadership from basic-pd-2 to basic-pd-0 as its annotation"
            + " tidb.pingcap.com/pd-transfer-leader=none asks",
        a.message());
  }

  @Test
  void anotherAnnotatedMemberIsNotChosen() {
    World w = new World().annotate(2, "none").annotate(0, "none");
    assertEquals(new PdActions.TransferLeader("basic-pd-2", "basic-pd-1"), act(w.decide()).action());
  }

  @Test
  void anUnhealthyMemberHoldsEverything() {
    World w = new World().annotate(2, "delete-pod").health(1, false);
    assertEquals(
        MemberDecision.waitFor(
            "pod basic-pd-2 asks tidb.pingcap.com/pd-transfer-leader=delete-pod; waiting until"
                + " every PD member is healthy (basic-pd-1 is not)"),
        w.decide());
  }

  @Test
  void noneOnAFollowerDoesNothing() {
    assertEquals(MemberDecision.IDLE, new World().annotate(1, "none").decide());
  }

  @Test
  void deletePodDeletesTheFollowerAfterTheTransfer() {
    World w = new World().annotate(2, "delete-pod");
    assertEquals(new PdActions.TransferLeader("basic-pd-2", "basic-pd-0"), act(w.decide()).action());
    w.leader = Optional.of("basic-pd-0");
    MemberDecision.Act a = act(w.decide());
    assertEquals(new PodActions.DeletePod("basic-pd-2", "uid-2"), a.action());
    assertEquals(
        "deleting pod basic-pd-2 (tidb.pingcap.com/pd-transfer-leader=delete-pod): it does not"
            + " lead PD",
        a.message());
  }

  @Test
  void aPodBeingDeletedIsLeftAlone() {
    World w = new World().annotate(1, Map.of(KEY, "delete-pod"), true);
    assertEquals(MemberDecision.IDLE, w.decide());
  }

  @Test
  void aSinglePdCannotHandOver() {
    World w = new World().annotate(2, "none").health(0, true);
    w.members.remove("basic-pd-0");
    w.members.remove("basic-pd-1");
    assertEquals(
        MemberDecision.waitFor(
            "basic-pd-2 leads PD and asks tidb.pingcap.com/pd-transfer-leader=none, but no other"
                + " member is healthy to take over"),
        w.decide());
  }

  @Test
  void whenEveryOtherMemberIsAnnotatedOneOfThemTakesOver() {
    World w = new World().annotate(2, "none").annotate(0, "none").annotate(1, "none");
    assertEquals(new PdActions.TransferLeader("basic-pd-2", "basic-pd-0"), act(w.decide()).action());
  }

  @Test
  void ordinalsCompareAsNumbers() {
    World w = new World();
    w.members.clear();
    for (String name : List.of("basic-pd-10", "basic-pd-9", "basic-pd-x")) {
      PdMember m = new PdMember();
      m.setName(name);
      m.setHealth(true);
      w.members.put(name, m);
    }
    w.pods.pod(new ObservedPod(10, "basic-pd-10", "uid-10", OLD, Optional.of(LONG_AGO), LONG_AGO,
        false, Map.of(KEY, "none")));
    w.leader = Optional.of("basic-pd-10");
    assertEquals(new PdActions.TransferLeader("basic-pd-10", "basic-pd-9"),
        act(w.decide()).action());
  }

  @Test
  void anExpirationTimeThatCannotBeReadHasExpired() {
    World w = new World().annotate(2, Map.of(KEY, "none",
        PdTransferLeaderAnnotation.EXPIRATION_KEY, "later"), false);
    assertEquals(MemberDecision.IDLE, w.decide());
  }

  @Test
  void expiredOrUnknownAnnotationsAreIgnored() {
    World w = new World().annotate(2, Map.of(KEY, "none",
        PdTransferLeaderAnnotation.EXPIRATION_KEY, Conditions.timestamp(NOW.minusSeconds(1))),
        false);
    assertEquals(MemberDecision.IDLE, w.decide());
    assertEquals(MemberDecision.IDLE, new World().annotate(2, "please").decide());
  }
}
