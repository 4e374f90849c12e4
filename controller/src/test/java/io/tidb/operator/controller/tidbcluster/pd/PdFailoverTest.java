package io.tidb.operator.controller.tidbcluster.pd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tidb.operator.api.v1alpha1.cluster.PdFailureMember;
import io.tidb.operator.api.v1alpha1.cluster.PdMember;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class PdFailoverTest {

  private static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");
  private static final Duration PERIOD = Duration.ofMinutes(5);
  private static final String LONG_AGO = NOW.minus(Duration.ofMinutes(6)).toString();
  private static final String RECENTLY = NOW.minus(Duration.ofMinutes(4)).toString();
  private static final Set<String> READY = Set.of("basic-pd-0", "basic-pd-1", "basic-pd-2");

  private static PdMember member(int ordinal, boolean health, String since) {
    PdMember m = new PdMember();
    m.setName("basic-pd-" + ordinal);
    m.setId(String.valueOf(100 + ordinal));
    m.setHealth(health);
    m.setLastTransitionTime(since);
    return m;
  }

  /** basic-pd-0..2, basic-pd-1 with {@code health} since {@code since}. */
  private static Map<String, PdMember> members(boolean health, String since) {
    Map<String, PdMember> m = new TreeMap<>();
    m.put("basic-pd-0", member(0, true, LONG_AGO));
    m.put("basic-pd-1", member(1, health, since));
    m.put("basic-pd-2", member(2, true, LONG_AGO));
    return m;
  }

  private static Map<String, PdFailureMember> record(int ordinal, boolean deleted) {
    PdFailureMember r = new PdFailureMember();
    r.setPodName("basic-pd-" + ordinal);
    r.setMemberID(String.valueOf(100 + ordinal));
    r.setMemberDeleted(deleted);
    Map<String, PdFailureMember> m = new TreeMap<>();
    m.put("basic-pd-" + ordinal, r);
    return m;
  }

  private static PdFailover.Decision decide(
      Map<String, PdMember> members,
      Map<String, PdFailureMember> records,
      Integer max,
      Set<String> ready,
      boolean synced,
      boolean quiet) {
    return PdFailover.decide(
        new PdFailover.Facts(
            "basic", members, null, records, 3, max, ready, synced, quiet, PERIOD, NOW));
  }

  @Test
  void aMemberUnhealthyLongerThanThePeriodIsMarked() {
    PdFailover.Decision d = decide(members(false, LONG_AGO), null, 3, READY, true, true);
    assertEquals(new PdFailover.Mark("basic-pd-1", "101"), d);
  }

  @Test
  void notBeforeThePeriodHasPassed() {
    assertInstanceOf(
        PdFailover.Nothing.class, decide(members(false, RECENTLY), null, 3, READY, true, true));
  }

  @Test
  void notWhileUnsyncedOrBusyOrWithMaxZero() {
    Map<String, PdMember> m = members(false, LONG_AGO);
    assertEquals(
        new PdFailover.Nothing("PD's status is not synced"),
        decide(m, null, 3, READY, false, true));
    assertEquals(
        new PdFailover.Nothing("PD is scaling or being upgraded"),
        decide(m, null, 3, READY, true, false));
    assertEquals(new PdFailover.Nothing(""), decide(m, null, 0, READY, true, true));
    assertEquals(new PdFailover.Nothing(""), decide(m, null, null, READY, true, true));
  }

  @Test
  void neverWithoutQuorum() {
    Map<String, PdMember> m = members(false, LONG_AGO);
    m.put("basic-pd-2", member(2, false, LONG_AGO));
    PdFailover.Decision d = decide(m, null, 3, READY, true, true);
    assertEquals(new PdFailover.Nothing("PD has no quorum (1 of 3 members healthy)"), d);
    assertEquals(
        new PdFailover.Nothing("PD has no quorum (1 of 3 members healthy)"),
        decide(m, record(1, false), 3, READY, true, true));
  }

  @Test
  void aMarkedMemberStillUnhealthyIsDeletedNext() {
    PdFailover.Decision d =
        decide(members(false, LONG_AGO), record(1, false), 3, READY, true, true);
    assertEquals(new PdFailover.Delete("basic-pd-1", "101"), d);
  }

  @Test
  void aMarkedMemberHealthyAgainIsNotDeleted() {
    PdFailover.Decision d =
        decide(members(true, RECENTLY), record(1, false), 3, Set.of("basic-pd-0", "basic-pd-2"),
            true, true);
    assertEquals(new PdFailover.Nothing(""), d);
  }

  @Test
  void oneMemberAtATime() {
    Map<String, PdMember> m = members(false, LONG_AGO);
    m.put("basic-pd-3", member(3, true, LONG_AGO));
    m.put("basic-pd-4", member(4, true, LONG_AGO));
    Map<String, PdFailureMember> records = record(1, false);
    m.put("basic-pd-2", member(2, false, LONG_AGO));
    // pd-1 is marked but not deleted: pd-2 is not marked meanwhile, pd-1 is deleted
    assertEquals(
        new PdFailover.Delete("basic-pd-1", "101"), decide(m, records, 3, READY, true, true));
  }

  @Test
  void cappedByMaxFailoverCount() {
    Map<String, PdMember> m = members(true, LONG_AGO);
    m.put("basic-pd-2", member(2, false, LONG_AGO));
    m.put("basic-pd-3", member(3, true, LONG_AGO));
    PdFailover.Decision d =
        decide(m, record(1, true), 1, Set.of("basic-pd-0", "basic-pd-3"), true, true);
    assertEquals(
        new PdFailover.Nothing("PD failover replicas (1) reached spec.pd.maxFailoverCount (1)"),
        d);
    assertEquals(
        new PdFailover.Mark("basic-pd-2", "102"),
        decide(m, record(1, true), 3, Set.of("basic-pd-0", "basic-pd-3"), true, true));
  }

  @Test
  void aReplacementMemberIsNeverMarked() {
    Map<String, PdMember> m = members(true, LONG_AGO);
    m.put("basic-pd-3", member(3, false, LONG_AGO));
    assertEquals(new PdFailover.Nothing(""), decide(m, null, 3, READY, true, true));
  }

  @Test
  void everySpecPodReadyAndHealthyRecovers() {
    Map<String, PdMember> m = members(true, RECENTLY);
    m.put("basic-pd-3", member(3, true, LONG_AGO));
    assertEquals(new PdFailover.Recover(), decide(m, record(1, true), 3, READY, true, false));
    assertTrue(
        decide(m, record(1, true), 3, Set.of("basic-pd-0", "basic-pd-2"), true, true)
            instanceof PdFailover.Nothing);
  }

  @org.junit.jupiter.params.ParameterizedTest(name = "pod {0}, record {1} -> {2}")
  @org.junit.jupiter.params.provider.CsvSource({
    "2026-01-01T00:00:00Z, 2026-01-01T00:05:00.250Z, true",
    "2026-01-01T00:05:00Z, 2026-01-01T00:05:00.250Z, true",
    "2026-01-01T00:06:00Z, 2026-01-01T00:05:00.250Z, false",
    ", 2026-01-01T00:05:00.250Z, true",
    "2026-01-01T00:06:00Z, not-a-time, true",
  })
  void onlyAPodFromBeforeTheRecordIsTheFailedOne(String pod, String record, boolean failed) {
    org.junit.jupiter.api.Assertions.assertEquals(failed, PdFailover.createdBefore(pod, record));
  }
}
