package io.tidb.operator.controller.dmcluster;

import static io.tidb.operator.controller.fixtures.Rollouts.NEW;
import static io.tidb.operator.controller.fixtures.Rollouts.OLD;
import static io.tidb.operator.controller.fixtures.Rollouts.rollout;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tidb.operator.controller.dmcluster.MasterStep.Action;
import io.tidb.operator.controller.tidbcluster.member.Rollout;
import io.tidb.operator.controller.tidbcluster.member.StatefulSetPlan;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The decision table of dm-master's scale and upgrade steps. */
class MasterPlanTest {

  private static final String SET = "dc-dm-master";

  private static Map<String, Boolean> members(boolean... alive) {
    Map<String, Boolean> out = new LinkedHashMap<>();
    for (int i = 0; i < alive.length; i++) {
      out.put(SET + "-" + i, alive[i]);
    }
    return out;
  }

  private static Rollout settled(int replicas) {
    return rollout(SET, replicas).revisions(NEW, NEW).allReady(NEW).build();
  }

  private static MasterStep decide(int wanted, Rollout r, Map<String, Boolean> health, String leader) {
    return MasterPlan.decide(wanted, Optional.of(r), true, health, Optional.ofNullable(leader));
  }

  @Test
  void noStatefulSetIsCreatedWithTheWantedReplicas() {
    MasterStep s = MasterPlan.decide(3, Optional.empty(), false, Map.of(), Optional.empty());
    assertEquals(new StatefulSetPlan(3, 0), s.plan());
    assertEquals(Action.NONE, s.action());
  }

  @Test
  void aSettledClusterHoldsItsPods() {
    MasterStep s = decide(3, settled(3), members(true, true, true), SET + "-0");
    assertEquals(StatefulSetPlan.holding(3), s.plan());
    assertEquals(Optional.empty(), s.waitingFor());
  }

  @Test
  void withoutTheApiNothingChangesEvenIfTheSpecWantsFewer() {
    MasterStep s = MasterPlan.decide(1, Optional.of(settled(3)), false, Map.of(), Optional.empty());
    assertEquals(StatefulSetPlan.holding(3), s.plan());
    assertEquals(Action.NONE, s.action());
  }

  @Test
  void scaleOutAddsOneMemberAtATime() {
    assertEquals(StatefulSetPlan.holding(2), decide(3, settled(1), members(true), SET + "-0").plan());
  }

  @Test
  void scaleInDeletesTheHighestMemberThenShrinks() {
    MasterStep s = decide(1, settled(3), members(true, true, true), SET + "-0");
    assertEquals(Action.DELETE_MEMBER, s.action());
    assertEquals(SET + "-2", s.member());
    assertEquals(StatefulSetPlan.holding(2), s.plan());
  }

  @Test
  void aLeaderBeingRemovedHandsOverFirst() {
    MasterStep s = decide(1, settled(3), members(true, true, true), SET + "-2");
    assertEquals(Action.EVICT_LEADER, s.action());
    assertEquals(SET + "-2", s.member());
    assertEquals(StatefulSetPlan.holding(3), s.plan());
  }

  @Test
  void ordinalZeroIsRemovedWithoutEvictionWhenScalingToZero() {
    MasterStep s = decide(0, settled(1), members(true), SET + "-0");
    assertEquals(Action.DELETE_MEMBER, s.action());
  }

  @Test
  void aMemberAlreadyGoneOnlyShrinks() {
    MasterStep s = decide(1, settled(3), members(true, true), SET + "-0");
    assertEquals(Action.NONE, s.action());
    assertEquals(StatefulSetPlan.holding(2), s.plan());
  }

  @Test
  void noDeletionThatWouldLeaveNoQuorum() {
    MasterStep s = decide(2, settled(3), members(true, false, true), SET + "-0");
    assertEquals(Action.NONE, s.action());
    assertEquals(StatefulSetPlan.holding(3), s.plan());
    assertTrue(s.waitingFor().get().contains("no quorum"), s.waitingFor().get());
  }

  @Test
  void upgradeReleasesTheHighestPodFirst() {
    Rollout r = rollout(SET, 3).allReady(OLD).build();
    MasterStep s = decide(3, r, members(true, true, true), SET + "-0");
    assertEquals(new StatefulSetPlan(3, 2), s.plan());
  }

  @Test
  void upgradeEvictsALeaderBeforeReleasingItsPod() {
    Rollout r = rollout(SET, 3).partition(2).ready(0, OLD).ready(1, OLD).ready(2, NEW).build();
    MasterStep s = decide(3, r, members(true, true, true), SET + "-1");
    assertEquals(Action.EVICT_LEADER, s.action());
    assertEquals(SET + "-1", s.member());
    assertEquals(new StatefulSetPlan(3, 2), s.plan());
  }

  @Test
  void upgradeWaitsForAnUpgradedPodToBeAHealthyMember() {
    Rollout r = rollout(SET, 3).partition(2).ready(0, OLD).ready(1, OLD).ready(2, NEW).build();
    MasterStep s = decide(3, r, members(true, true, false), SET + "-0");
    assertEquals(new StatefulSetPlan(3, 2), s.plan());
    assertEquals(Action.NONE, s.action());
  }

  @Test
  void aSingleMemberUpgradesWithoutEviction() {
    Rollout r = rollout(SET, 1).allReady(OLD).build();
    MasterStep s = decide(1, r, members(true), SET + "-0");
    assertEquals(Action.NONE, s.action());
    assertEquals(new StatefulSetPlan(1, 0), s.plan());
  }
}
