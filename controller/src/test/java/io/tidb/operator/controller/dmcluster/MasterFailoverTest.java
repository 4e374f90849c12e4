package io.tidb.operator.controller.dmcluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tidb.operator.api.v1alpha1.dm.MasterFailureMember;
import io.tidb.operator.api.v1alpha1.dm.MasterMember;
import io.tidb.operator.controller.dmcluster.MasterFailover.Action;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The decision table of dm-master failover. */
class MasterFailoverTest {

  private static final String SET = "dc-dm-master";
  private static final Instant NOW = Instant.parse("2026-12-01T12:00:00Z");
  private static final Duration PERIOD = Duration.ofMinutes(5);

  private static MasterMember member(int ordinal, boolean health, Duration since) {
    MasterMember m = new MasterMember();
    m.setName(SET + "-" + ordinal);
    m.setId(String.valueOf(100 + ordinal));
    m.setHealth(health);
    m.setLastTransitionTime(NOW.minus(since).toString());
    return m;
  }

  private static Map<String, MasterMember> members(MasterMember... ms) {
    Map<String, MasterMember> out = new TreeMap<>();
    for (MasterMember m : ms) {
      out.put(m.getName(), m);
    }
    return out;
  }

  private static Map<String, MasterFailureMember> failure(int ordinal, boolean deleted) {
    MasterFailureMember f = new MasterFailureMember();
    f.setPodName(SET + "-" + ordinal);
    f.setMemberDeleted(deleted);
    return Map.of(f.getPodName(), f);
  }

  private static MasterFailover decide(Map<String, MasterMember> members, Map<String, MasterFailureMember> failures,
      int desired, int max) {
    return MasterFailover.decide(true, true, members, failures, SET, desired, max, PERIOD, NOW);
  }

  private static final Duration LONG = Duration.ofMinutes(6);
  private static final Duration SHORT = Duration.ofMinutes(1);

  @Test
  void aMemberUnhealthyLongerThanThePeriodIsMarked() {
    MasterFailover f = decide(members(member(0, true, LONG), member(1, false, LONG), member(2, true, LONG)),
        null, 3, 3);
    assertEquals(Action.MARK, f.action());
    assertEquals(SET + "-1", f.pod());
  }

  @Test
  void notBeforeThePeriodNorWhenOffNorWithoutTheApi() {
    Map<String, MasterMember> ms = members(member(0, true, LONG), member(1, false, SHORT), member(2, true, LONG));
    assertEquals(Action.NONE, decide(ms, null, 3, 3).action());
    Map<String, MasterMember> due = members(member(0, true, LONG), member(1, false, LONG), member(2, true, LONG));
    assertEquals(Action.NONE, MasterFailover.decide(false, true, due, null, SET, 3, 3, PERIOD, NOW).action());
    assertEquals(Action.NONE, MasterFailover.decide(true, false, due, null, SET, 3, 3, PERIOD, NOW).action());
  }

  @Test
  void noFailoverWithoutAHealthyQuorum() {
    MasterFailover f = decide(members(member(0, true, LONG), member(1, false, LONG), member(2, false, LONG)),
        null, 3, 3);
    assertEquals(Action.NONE, f.action());
  }

  @Test
  void aMarkedMemberIsDeletedThenCountsAsAReplica() {
    Map<String, MasterMember> ms = members(member(0, true, LONG), member(1, false, LONG), member(2, true, LONG));
    MasterFailover f = decide(ms, failure(1, false), 3, 3);
    assertEquals(Action.DELETE, f.action());
    assertEquals(SET + "-1", f.pod());
    assertEquals(1, MasterFailover.replicasAdded(failure(1, true)));
    assertEquals(0, MasterFailover.replicasAdded(failure(1, false)));
  }

  @Test
  void maxFailoverCountCapsTheReplacements() {
    Map<String, MasterMember> ms = members(member(0, true, LONG), member(2, false, LONG), member(3, true, LONG));
    assertEquals(Action.NONE, decide(ms, failure(1, true), 4, 1).action());
    assertEquals(Action.MARK, decide(ms, failure(1, true), 4, 2).action());
    assertEquals(Action.NONE, decide(ms, null, 3, 0).action(), "0 disables failover");
  }

  @Test
  void everyMemberHealthyAgainForgetsTheFailures() {
    Map<String, MasterMember> ms = members(member(0, true, LONG), member(1, true, SHORT), member(2, true, LONG),
        member(3, true, SHORT));
    assertEquals(Action.RECOVER, decide(ms, failure(1, true), 4, 3).action());
    assertEquals(Action.NONE, decide(members(member(0, true, LONG), member(2, true, LONG)), failure(1, true), 4, 3)
        .action(), "not while replicas are missing");
  }
}
