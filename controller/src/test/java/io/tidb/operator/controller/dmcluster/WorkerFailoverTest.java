package io.tidb.operator.controller.dmcluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tidb.operator.api.v1alpha1.dm.WorkerFailureMember;
import io.tidb.operator.api.v1alpha1.dm.WorkerMember;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The decision table of dm-worker failover (upstream's dm_worker_failover.go). */
class WorkerFailoverTest {

  private static final String SET = "dc-dm-worker";
  private static final Instant NOW = Instant.parse("2026-12-01T12:00:00Z");
  private static final Duration PERIOD = Duration.ofMinutes(5);
  private static final Duration LONG = Duration.ofMinutes(6);
  private static final Duration SHORT = Duration.ofMinutes(1);

  private static WorkerMember worker(int ordinal, String stage, Duration since) {
    WorkerMember m = new WorkerMember();
    m.setName(SET + "-" + ordinal);
    m.setStage(stage);
    m.setLastTransitionTime(NOW.minus(since).toString());
    return m;
  }

  private static Map<String, WorkerMember> members(WorkerMember... ws) {
    Map<String, WorkerMember> out = new TreeMap<>();
    for (WorkerMember w : ws) {
      out.put(w.getName(), w);
    }
    return out;
  }

  private static Map<String, WorkerFailureMember> records(int... ordinals) {
    Map<String, WorkerFailureMember> out = new TreeMap<>();
    for (int o : ordinals) {
      WorkerFailureMember f = new WorkerFailureMember();
      f.setPodName(SET + "-" + o);
      f.setCreatedAt(NOW.minus(LONG).toString());
      out.put(f.getPodName(), f);
    }
    return out;
  }

  private static WorkerFailover.Result decide(Map<String, WorkerMember> members,
      Map<String, WorkerFailureMember> records, String uid, int spec, Integer max, boolean recover,
      String recoverByUid, Set<String> ready, boolean auto, boolean quiet) {
    return WorkerFailover.decide(new WorkerFailover.Facts(SET, members, records, uid, spec, max, recover,
        recoverByUid, ready, auto, quiet, PERIOD, NOW, "new-uid"));
  }

  private static WorkerFailover.Result quiet(Map<String, WorkerMember> members,
      Map<String, WorkerFailureMember> records, int max) {
    return decide(members, records, null, 3, max, false, null, Set.of(), true, true);
  }

  @Test
  void aWorkerOfflineLongerThanThePeriodIsRecordedWithAFailoverUid() {
    WorkerFailover.Result r = quiet(members(worker(0, "bound", LONG), worker(1, "offline", LONG),
        worker(2, "free", LONG)), null, 3);
    assertEquals(List.of(SET + "-1"), r.recorded());
    assertEquals(Set.of(SET + "-1"), r.records().keySet());
    assertEquals(NOW.toString(), r.records().get(SET + "-1").getCreatedAt());
    assertEquals("new-uid", r.failoverUid());
    assertEquals(4, WorkerFailover.desiredReplicas(3, r.records()));
  }

  @Test
  void offlineForLessThanThePeriodOrOnlineIsNotRecorded() {
    assertNull(quiet(members(worker(0, "offline", SHORT), worker(1, "bound", LONG), worker(2, "free", LONG)),
        null, 3).records());
  }

  @Test
  void maxFailoverCountLimitsTheRecords() {
    Map<String, WorkerMember> two = members(worker(0, "offline", LONG), worker(1, "offline", LONG),
        worker(2, "free", LONG));
    WorkerFailover.Result r = quiet(two, null, 1);
    assertEquals(Set.of(SET + "-0"), r.records().keySet());
    assertEquals(1, r.recorded().size());
    WorkerFailover.Result next = decide(two, r.records(), r.failoverUid(), 3, 1, false, null, Set.of(), true, true);
    assertEquals(List.of(), next.recorded(), "the limit is reached");
    assertNull(quiet(two, null, 0).records(), "maxFailoverCount 0: no failover");
  }

  @Test
  void noRecordWhenFailoverIsOffOrTheWorkersAreNotQuiet() {
    Map<String, WorkerMember> m = members(worker(0, "offline", LONG), worker(1, "free", LONG), worker(2, "free", LONG));
    assertNull(decide(m, null, null, 3, 3, false, null, Set.of(), false, true).records(), "--auto-failover=false");
    assertNull(decide(m, null, null, 3, 3, false, null, Set.of(), true, false).records(),
        "not every pod started, or the API did not answer");
  }

  @Test
  void aReplacementPodBeyondTheSpecIsNeverRecorded() {
    assertNull(quiet(members(worker(0, "free", LONG), worker(1, "free", LONG), worker(2, "free", LONG),
        worker(3, "offline", LONG)), null, 3).records());
  }

  @Test
  void recoverFailoverClearsTheRecordsOnceEveryDesiredWorkerIsReadyAndOnline() {
    Set<String> ready = Set.of(SET + "-0", SET + "-1", SET + "-2");
    Map<String, WorkerMember> back = members(worker(0, "bound", LONG), worker(1, "free", SHORT),
        worker(2, "free", LONG), worker(3, "free", LONG));
    WorkerFailover.Result r = decide(back, records(1), "uid-1", 3, 3, true, null, ready, true, false);
    assertTrue(r.recovered());
    assertNull(r.records());
    assertNull(r.failoverUid());
    assertEquals(3, WorkerFailover.desiredReplicas(3, r.records()));
  }

  @Test
  void recoverByUidMustMatchTheFailoverUid() {
    Set<String> ready = Set.of(SET + "-0", SET + "-1", SET + "-2");
    Map<String, WorkerMember> back = members(worker(0, "free", LONG), worker(1, "free", SHORT), worker(2, "free", LONG));
    assertTrue(decide(back, records(1), "uid-1", 3, 3, false, "uid-1", ready, true, false).recovered());
    WorkerFailover.Result other = decide(back, records(1), "uid-1", 3, 3, false, "uid-0", ready, true, false);
    assertFalse(other.recovered());
    assertEquals(Set.of(SET + "-1"), other.records().keySet());
  }

  @Test
  void noRecoveryWhileADesiredWorkerIsOfflineOrItsPodNotReady() {
    Map<String, WorkerMember> stillOffline = members(worker(0, "free", LONG), worker(1, "offline", LONG),
        worker(2, "free", LONG));
    assertFalse(decide(stillOffline, records(1), "u", 3, 3, true, null,
        Set.of(SET + "-0", SET + "-1", SET + "-2"), true, false).recovered());
    Map<String, WorkerMember> online = members(worker(0, "free", LONG), worker(1, "free", LONG), worker(2, "free", LONG));
    assertFalse(decide(online, records(1), "u", 3, 3, true, null, Set.of(SET + "-0", SET + "-2"), true, false)
        .recovered(), "pod 1 not Ready");
    assertFalse(decide(online, records(1), "u", 3, 3, false, null, Set.of(SET + "-0", SET + "-1", SET + "-2"),
        true, false).recovered(), "neither recoverFailover nor recoverByUID");
  }

  @Test
  void aRecordOfAPodTheSpecNoLongerAsksForIsDropped() {
    WorkerFailover.Result r = decide(members(worker(0, "free", LONG)), records(2), "u", 1, 3, false, null,
        Set.of(), true, false);
    assertNull(r.records(), "scaled in to 1: the record of pod 2 goes");
    assertFalse(r.recovered());
  }
}
