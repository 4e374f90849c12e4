package io.tidb.operator.controller.tidbcluster.pd;

import static io.tidb.operator.controller.fixtures.Rollouts.LONG_AGO;
import static io.tidb.operator.controller.fixtures.Rollouts.OLD;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.tidb.operator.api.v1alpha1.cluster.PdMember;
import io.tidb.operator.controller.tidbcluster.member.MemberDecision;
import io.tidb.operator.controller.tidbcluster.member.ObservedPod;
import io.tidb.operator.controller.tidbcluster.member.VolumeReplace;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Decision table of PD's volume replace of basic-pd-1 in a 3 + 1 spare PD cluster. */
class PdVolumeReplaceTest {

  private static final ObservedPod POD = new ObservedPod(1, "basic-pd-1", "uid-1", OLD,
      Optional.of(LONG_AGO), LONG_AGO, false, Map.of(VolumeReplace.ANNOTATION, "true"));

  private static final Map<String, PersistentVolumeClaim> CLAIMS = Map.of("pd-basic-pd-1",
      new PersistentVolumeClaimBuilder().withNewMetadata().withName("pd-basic-pd-1")
          .withUid("c1").endMetadata().build());

  private static Map<String, PdMember> members(boolean withPod1, boolean pod0Healthy) {
    Map<String, PdMember> m = new TreeMap<>();
    for (int i = 0; i < 4; i++) {
      if (i == 1 && !withPod1) {
        continue;
      }
      PdMember member = new PdMember();
      member.setName("basic-pd-" + i);
      member.setId("10" + i);
      member.setHealth(i != 0 || pod0Healthy);
      m.put(member.getName(), member);
    }
    return m;
  }

  private static MemberDecision decide(
      Map<String, PdMember> members, String leader, boolean allHealthy) {
    return PdVolumeReplace.decide(
        new PdVolumeReplace.Facts(POD, members, Optional.ofNullable(leader), allHealthy, CLAIMS));
  }

  @Test
  void waitsUntilEveryMemberSpareIncludedIsHealthy() {
    assertEquals(
        MemberDecision.waitFor("replacing the volumes of basic-pd-1: waiting until every PD"
            + " member (spare replicas included) is healthy before its member leaves PD"),
        decide(members(true, true), "basic-pd-0", false));
  }

  @Test
  void theLeaderHandsOverToTheFirstOtherHealthyMember() {
    MemberDecision.Act a = assertInstanceOf(MemberDecision.Act.class,
        decide(members(true, false), "basic-pd-1", true));
    assertEquals(new PdActions.TransferLeader("basic-pd-1", "basic-pd-2"), a.action());
  }

  @Test
  void aFollowerIsDeletedFromPdById() {
    MemberDecision.Act a = assertInstanceOf(MemberDecision.Act.class,
        decide(members(true, true), "basic-pd-0", true));
    assertEquals(new PdActions.DeleteMemberById("basic-pd-1", "101"), a.action());
    assertEquals("replacing the volumes of basic-pd-1: deleting its member (id 101) from PD",
        a.message());
  }

  @Test
  void onceThePodIsNoMemberItsClaimsGoEvenIfOthersAreUnhealthy() {
    MemberDecision.Act a = assertInstanceOf(MemberDecision.Act.class,
        decide(members(false, false), "basic-pd-0", false));
    assertEquals(new VolumeReplace.DeleteClaims(Map.of("pd-basic-pd-1", "c1")), a.action());
  }

  @Test
  void aLeaderWithNoHealthyPeerIsBlocked() {
    Map<String, PdMember> only = new TreeMap<>();
    only.put("basic-pd-1", members(true, true).get("basic-pd-1"));
    assertInstanceOf(MemberDecision.Blocked.class, decide(only, "basic-pd-1", true));
  }
}
