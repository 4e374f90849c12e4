package io.tidb.operator.controller.tidbcluster.pd;

import static io.tidb.operator.controller.fixtures.Rollouts.OLD;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tidb.operator.api.v1alpha1.cluster.PdMember;
import io.tidb.operator.controller.fixtures.Rollouts;
import io.tidb.operator.controller.tidbcluster.member.MemberDecision;
import io.tidb.operator.controller.tidbcluster.member.Rollout;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class PdLeftoverMembersTest {

  private static Map<String, PdMember> members(String... names) {
    Map<String, PdMember> m = new TreeMap<>();
    for (String name : names) {
      PdMember member = new PdMember();
      member.setName(name);
      m.put(name, member);
    }
    return m;
  }

  @Test
  void aMemberAboveTheReplicasWithoutAPodIsRemoved() {
    Rollout three = Rollouts.rollout("basic-pd", 3).allReady(OLD).build();
    MemberDecision.Act a = assertInstanceOf(MemberDecision.Act.class, PdLeftoverMembers.decide(
        "basic", members("basic-pd-0", "basic-pd-1", "basic-pd-2", "basic-pd-3"), three)
        .orElseThrow());
    assertEquals(new PdActions.DeleteMember("basic-pd-3"), a.action());
  }

  @Test
  void membersWithAPodOrBelowTheReplicasOrOfAnotherClusterStay() {
    Rollout three = Rollouts.rollout("basic-pd", 3).allReady(OLD).build();
    assertTrue(PdLeftoverMembers.decide(
        "basic", members("basic-pd-0", "basic-pd-1", "basic-pd-2", "other-pd-3", "basic-pd-x"),
        three).isEmpty());
    Rollout stillThere = Rollouts.rollout("basic-pd", 3).allReady(OLD)
        .pod(Rollouts.pod("basic-pd", 3, OLD, java.util.Optional.empty(), Rollouts.LONG_AGO)).build();
    assertTrue(PdLeftoverMembers.decide(
        "basic", members("basic-pd-0", "basic-pd-3"), stillThere).isEmpty(),
        "its pod is still being deleted");
  }
}
