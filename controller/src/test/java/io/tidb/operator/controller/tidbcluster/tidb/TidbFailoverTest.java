package io.tidb.operator.controller.tidbcluster.tidb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tidb.operator.api.v1alpha1.cluster.TidbFailureMember;
import io.tidb.operator.api.v1alpha1.cluster.TidbMember;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class TidbFailoverTest {

  private static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");
  private static final Duration PERIOD = Duration.ofMinutes(5);
  private static final String LONG_AGO = NOW.minus(Duration.ofMinutes(6)).toString();
  private static final String RECENTLY = NOW.minus(Duration.ofMinutes(4)).toString();
  private static final List<String> SPEC_PODS = List.of("basic-tidb-0", "basic-tidb-1");
  private static final Set<String> ALL = Set.of("basic-tidb-0", "basic-tidb-1", "basic-tidb-2");

  private static TidbMember member(boolean health, String since) {
    TidbMember m = new TidbMember();
    m.setHealth(health);
    m.setLastTransitionTime(since);
    return m;
  }

  private static Map<String, TidbFailureMember> records(String... pods) {
    Map<String, TidbFailureMember> r = new TreeMap<>();
    for (String pod : pods) {
      TidbFailureMember m = new TidbFailureMember();
      m.setPodName(pod);
      m.setCreatedAt(LONG_AGO);
      r.put(pod, m);
    }
    return r;
  }

  private static TidbFailover.Result decide(
      Map<String, TidbMember> members,
      Map<String, TidbFailureMember> records,
      Integer max,
      Set<String> scheduled,
      Set<String> ready,
      boolean quiet) {
    return TidbFailover.decide(
        new TidbFailover.Facts(
            members, records, max, scheduled, ready, SPEC_PODS, quiet, PERIOD, NOW));
  }

  private static Map<String, TidbMember> oneDown(String since) {
    return Map.of("basic-tidb-0", member(true, LONG_AGO), "basic-tidb-1", member(false, since));
  }

  @Test
  void aServerUnhealthyLongerThanThePeriodGetsARecord() {
    TidbFailover.Result r = decide(oneDown(LONG_AGO), null, 3, ALL, Set.of("basic-tidb-0"), true);
    assertEquals(Set.of("basic-tidb-1"), r.records().keySet());
    assertEquals(NOW.toString(), r.records().get("basic-tidb-1").getCreatedAt());
    assertEquals(Optional.of("basic-tidb-1"), r.unhealthy());
    assertFalse(r.recovered());
  }

  @Test
  void notBeforeThePeriodHasPassed() {
    TidbFailover.Result r = decide(oneDown(RECENTLY), null, 3, ALL, Set.of("basic-tidb-0"), true);
    assertNull(r.records());
    assertTrue(r.unhealthy().isEmpty());
  }

  @Test
  void notForAPodThatIsNotScheduled() {
    TidbFailover.Result r =
        decide(oneDown(LONG_AGO), null, 3, Set.of("basic-tidb-0"), Set.of("basic-tidb-0"), true);
    assertNull(r.records());
  }

  @Test
  void notWhileScalingOrUpgrading() {
    TidbFailover.Result r = decide(oneDown(LONG_AGO), null, 3, ALL, Set.of("basic-tidb-0"), false);
    assertNull(r.records());
  }

  @Test
  void notWhenMaxFailoverCountIsZeroOrUnset() {
    assertNull(decide(oneDown(LONG_AGO), null, 0, ALL, Set.of("basic-tidb-0"), true).records());
    assertNull(decide(oneDown(LONG_AGO), null, null, ALL, Set.of("basic-tidb-0"), true).records());
  }

  @Test
  void oneRecordPerPassAndCappedByMaxFailoverCount() {
    Map<String, TidbMember> twoDown =
        Map.of("basic-tidb-0", member(false, LONG_AGO), "basic-tidb-1", member(false, LONG_AGO));
    TidbFailover.Result first = decide(twoDown, null, 3, ALL, Set.of(), true);
    assertEquals(Set.of("basic-tidb-0"), first.records().keySet());
    TidbFailover.Result second = decide(twoDown, first.records(), 3, ALL, Set.of(), true);
    assertEquals(Set.of("basic-tidb-0", "basic-tidb-1"), second.records().keySet());
    TidbFailover.Result capped = decide(twoDown, records("basic-tidb-0"), 1, ALL, Set.of(), true);
    assertEquals(Set.of("basic-tidb-0"), capped.records().keySet());
    assertTrue(capped.unhealthy().isEmpty());
  }

  @Test
  void aRecordedServerThatIsHealthyAgainLosesItsRecord() {
    Map<String, TidbMember> members =
        Map.of(
            "basic-tidb-0", member(false, RECENTLY),
            "basic-tidb-1", member(true, RECENTLY),
            "basic-tidb-2", member(true, LONG_AGO));
    TidbFailover.Result r =
        decide(members, records("basic-tidb-1"), 3, ALL, Set.of("basic-tidb-1"), true);
    assertNull(r.records());
    assertFalse(r.recovered());
  }

  @Test
  void everySpecPodReadyAndHealthyClearsAllRecords() {
    Map<String, TidbMember> members =
        Map.of(
            "basic-tidb-0", member(true, LONG_AGO),
            "basic-tidb-1", member(true, RECENTLY),
            "basic-tidb-2", member(false, RECENTLY));
    TidbFailover.Result r =
        decide(members, records("basic-tidb-1"), 3, ALL, Set.of("basic-tidb-0", "basic-tidb-1"),
            false);
    assertNull(r.records());
    assertTrue(r.recovered());
  }

  @Test
  void aSpecPodNotReadyKeepsTheRecords() {
    Map<String, TidbMember> members =
        Map.of("basic-tidb-0", member(true, LONG_AGO), "basic-tidb-1", member(false, LONG_AGO));
    TidbFailover.Result r =
        decide(members, records("basic-tidb-1"), 3, ALL, Set.of("basic-tidb-0"), true);
    assertEquals(Set.of("basic-tidb-1"), r.records().keySet());
    assertFalse(r.recovered());
    assertTrue(r.unhealthy().isEmpty());
  }
}
