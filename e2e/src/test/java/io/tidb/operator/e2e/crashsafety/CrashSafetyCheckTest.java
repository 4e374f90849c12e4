package io.tidb.operator.e2e.crashsafety;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tidb.operator.e2e.crashsafety.CrashSafetyCheck.Call;
import io.tidb.operator.e2e.crashsafety.CrashSafetyCheck.Entry;
import io.tidb.operator.e2e.crashsafety.CrashSafetyCheck.Run;
import io.tidb.operator.e2e.crashsafety.CrashSafetyCheck.Violation;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each rule of {@link CrashSafetyCheck}, passing on a good history and failing on a bad one. */
class CrashSafetyCheckTest {

  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final Instant T0 = Instant.parse("2025-01-15T08:00:00Z");
  /** The script changed the spec here; entries before it are bring-up. */
  private static final Instant SINCE = T0.plusSeconds(100);
  private static final JsonNode DEFAULT_SCHEDULERS = json(
      "[\"balance-region-scheduler\",\"balance-leader-scheduler\","
          + "\"balance-hot-region-scheduler\",\"evict-slow-store-scheduler\"]");

  private static JsonNode json(String text) {
    try {
      return MAPPER.readTree(text);
    } catch (Exception e) {
      throw new IllegalArgumentException(e);
    }
  }

  /**
   * Builds a journal the way the simulator does: each entry carries the counts after it. The
   * state starts as a Ready cluster of 3 PD and {@code tikv} TiKV stores (ids 1..tikv).
   */
  private static final class Journal {
    final List<Entry> entries = new ArrayList<>();
    int members = 3;
    int healthy = 3;
    int up;
    int offline;
    int tombstonePods;
    int stopped;
    List<Long> evict = List.of();
    int maxReplicas = 3;

    Journal(int tikv) {
      at(10, "member-added", null, "basic-pd-0");
      for (long id = 1; id <= tikv; id++) {
        up++;
        at(20 + id, "store-joined", id, null);
      }
    }

    Journal at(long second, String event, Long store, String member) {
      entries.add(new Entry(entries.size() + 1, T0.plusSeconds(second), event, store,
          store == null ? null : "basic-tikv-" + (store - 1), member, members, healthy, up,
          offline, tombstonePods, stopped, evict, maxReplicas));
      return this;
    }

    Journal offline(long second, long store) {
      up--;
      offline++;
      return at(second, "store-offline", store, null);
    }

    Journal tombstone(long second, long store) {
      offline--;
      tombstonePods++;
      return at(second, "store-tombstone", store, null);
    }

    Journal podRemoved(long second, long store) {
      tombstonePods--;
      return at(second, "store-pod-removed", store, null);
    }

    Journal heartbeat(long second, long store, boolean lost) {
      stopped += lost ? 1 : -1;
      return at(second, lost ? "store-heartbeat-lost" : "store-heartbeat-resumed", store, null);
    }

    Journal member(long second, String name, boolean isHealthy) {
      healthy += isHealthy ? 1 : -1;
      return at(second, isHealthy ? "member-healthy" : "member-unhealthy", null, name);
    }

    Journal evict(long second, List<Long> stores, long store) {
      boolean begin = stores.size() > evict.size();
      evict = stores;
      return at(second, begin ? "evict-leader-begin" : "evict-leader-end", store, null);
    }
  }

  private static Call deleteStore(long second, long store) {
    return new Call(T0.plusSeconds(second), "DELETE", "/pd/api/v1/store/" + store, null, 200);
  }

  private static List<Violation> check(Journal journal, List<Call> calls, int parallelism) {
    return CrashSafetyCheck.check(
        new Run(journal.entries, calls, SINCE, parallelism, DEFAULT_SCHEDULERS, List.of()));
  }

  private static List<String> rules(List<Violation> violations) {
    return violations.stream().map(Violation::rule).toList();
  }

  /** 4 → 3 done right: one store Offline, Tombstone, its pod removed. */
  @Test
  void aCorrectScaleInPasses() {
    Journal journal = new Journal(4)
        .offline(110, 4).tombstone(120, 4).podRemoved(125, 4);

    assertEquals(List.of(), check(journal, List.of(deleteStore(110, 4)), 1));
  }

  /** 5 → 3 with parallelism 1: the second store goes Offline only once the first pod is gone. */
  @Test
  void aSequentialScaleInByTwoPasses() {
    Journal journal = new Journal(5)
        .offline(110, 5).tombstone(120, 5).podRemoved(125, 5)
        .offline(130, 4).tombstone(140, 4).podRemoved(145, 4);

    assertEquals(List.of(), check(journal,
        List.of(deleteStore(110, 5), deleteStore(130, 4)), 1));
  }

  @Test
  void twoStoresOfflineAtOnceBreakParallelismOne() {
    Journal journal = new Journal(5)
        .offline(110, 5).offline(111, 4).tombstone(120, 5).tombstone(121, 4);

    List<Violation> violations = check(journal, List.of(), 1);
    assertEquals(List.of("scale-in-parallelism"), rules(violations));
    assertEquals(T0.plusSeconds(111), violations.get(0).time());
    assertTrue(violations.get(0).detail().contains(
        "2 TiKV stores being removed at once (Offline 2, Tombstone with pod 0), more than "
            + "scaleInParallelism 1, after store-offline store 4 (basic-tikv-3)"),
        violations.get(0).detail());
    // With parallelism 2 the same history is fine.
    assertEquals(List.of(), check(journal, List.of(), 2));
  }

  /** The next store may not go Offline while the previous Tombstone's pod still exists. */
  @Test
  void aStoreOfflineBeforeThePreviousPodIsGoneBreaksParallelism() {
    Journal journal = new Journal(5)
        .offline(110, 5).tombstone(120, 5).offline(121, 4).podRemoved(125, 5);

    List<Violation> violations = check(journal, List.of(), 1);
    assertEquals(List.of("scale-in-parallelism"), rules(violations));
    assertTrue(violations.get(0).detail().contains("(Offline 1, Tombstone with pod 1)"));
  }

  @Test
  void tooFewUpStoresBreakMinUpStores() {
    // 3 → 2 forced past PD's check: 2 Up stores while max-replicas is 3.
    Journal journal = new Journal(3).offline(110, 3);

    List<Violation> violations = check(journal, List.of(), 1);
    assertEquals(List.of("min-up-stores"), rules(violations));
    assertTrue(violations.get(0).detail()
        .startsWith("2 Up TiKV stores, fewer than max-replicas 3"));
  }

  @Test
  void bringUpBeforeTheChangeIsNotJudged() {
    // Stores joined one by one (1, 2, 3 Up) long before SINCE: no min-up-stores violation.
    assertEquals(List.of(), check(new Journal(3), List.of(), 1));
  }

  @Test
  void aBadStateAlreadyAtTheChangeCounts() {
    Journal journal = new Journal(2);

    List<Violation> violations = check(journal, List.of(), 1);
    assertEquals(List.of("min-up-stores"), rules(violations));
    assertTrue(violations.get(0).detail().contains("already at the change"));
  }

  @Test
  void oneViolationPerEpisodeNotPerEntry() {
    Journal journal = new Journal(3)
        .heartbeat(110, 1, true).heartbeat(111, 2, true).heartbeat(112, 3, true)
        .heartbeat(113, 3, false).heartbeat(114, 2, false).heartbeat(115, 1, false)
        .heartbeat(120, 1, true).heartbeat(121, 2, true);

    List<Violation> violations = check(journal, List.of(), 1);
    assertEquals(List.of("tikv-majority", "tikv-majority"), rules(violations));
    assertEquals(T0.plusSeconds(111), violations.get(0).time());
    assertEquals(T0.plusSeconds(121), violations.get(1).time());
  }

  @Test
  void oneTikvRestartingAtATimeKeepsTheMajority() {
    Journal journal = new Journal(3)
        .heartbeat(110, 3, true).heartbeat(112, 3, false)
        .heartbeat(113, 2, true).heartbeat(115, 2, false);

    assertEquals(List.of(), check(journal, List.of(), 1));
  }

  @Test
  void twoPdMembersDownOfThreeBreakQuorum() {
    Journal good = new Journal(3)
        .member(110, "basic-pd-2", false).member(112, "basic-pd-2", true);
    assertEquals(List.of(), check(good, List.of(), 1));

    Journal bad = new Journal(3)
        .member(110, "basic-pd-2", false).member(111, "basic-pd-1", false);
    List<Violation> violations = check(bad, List.of(), 1);
    assertEquals(List.of("pd-quorum"), rules(violations));
    assertTrue(violations.get(0).detail().startsWith("1 of 3 PD members healthy: no quorum"));
  }

  @Test
  void deletingAStoreThatIsOfflineAlreadyIsFlagged() {
    Journal journal = new Journal(4).offline(110, 4).tombstone(120, 4).podRemoved(125, 4);

    // The first DELETE is what made store 4 Offline (the transition comes after the call was
    // received); the second came from a restarted controller that did not look first.
    List<Violation> violations = check(journal,
        List.of(deleteStore(110, 4), deleteStore(115, 4)), 1);
    assertEquals(List.of("delete-offline-store"), rules(violations));
    assertTrue(violations.get(0).detail().startsWith("DELETE /pd/api/v1/store/4 (answered 200) "
        + "for store 4, which was Offline already since " + T0.plusSeconds(110)),
        violations.get(0).detail());

    // A DELETE after the store was Up again (a cancelled removal) is a new removal.
    Journal cancelled = new Journal(4).offline(110, 4);
    cancelled.up++;
    cancelled.offline--;
    cancelled.at(112, "store-up", 4L, null);
    assertEquals(List.of(), check(cancelled, List.of(deleteStore(110, 4), deleteStore(115, 4)), 1)
        .stream().filter(v -> v.rule().equals("delete-offline-store")).toList());
  }

  @Test
  void evictLeaderSchedulersLeftAreFlaggedFromPdAndFromTheSimulator() {
    Journal journal = new Journal(3).evict(110, List.of(2L), 2).evict(120, List.of(), 2);
    assertEquals(List.of(), check(journal, List.of(), 1));

    JsonNode left = json("[\"balance-region-scheduler\",\"evict-leader-scheduler-2\"]");
    List<Violation> violations = CrashSafetyCheck.check(
        new Run(journal.entries, List.of(), SINCE, 1, left, List.of(2L)));
    assertEquals(List.of("evict-leader-left", "evict-leader-left"), rules(violations));
    assertEquals("PD still lists scheduler evict-leader-scheduler-2 at the end",
        violations.get(0).detail());
    assertEquals("the simulator still evicts leaders from stores [2] at the end",
        violations.get(1).detail());

    // PD did not answer with a list: the rule cannot pass.
    List<Violation> unknown = CrashSafetyCheck.check(new Run(journal.entries, List.of(), SINCE, 1,
        MAPPER.getNodeFactory().textNode("pd-simulator: PD of ns/basic is not reachable"),
        List.of()));
    assertEquals(List.of("evict-leader-left"), rules(unknown));
    assertTrue(unknown.get(0).detail().startsWith("could not read PD's schedulers"));
  }

  @Test
  void aJournalWithoutBaselineIsAViolationNotAPass() {
    Journal journal = new Journal(0);
    journal.entries.clear();
    journal.up = 3;
    journal.at(110, "store-joined", 1L, null);

    assertEquals(List.of("no-baseline"), rules(check(journal, List.of(), 1)));
    assertEquals(List.of("no-baseline"), rules(CrashSafetyCheck.check(
        new Run(List.of(), List.of(), SINCE, 1, DEFAULT_SCHEDULERS, List.of()))));
  }

  /** The command line over the files the script writes, in the simulator's JSON shapes. */
  @Test
  void commandLineReadsTheRunDirectory(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("journal.json"), """
        [ {"seq":1,"time":"2025-01-15T08:00:10Z","cluster":"ns/basic","event":"store-joined",
           "store":1,"pod":"basic-tikv-0","member":null,"leader":"basic-pd-0","members":3,
           "healthyMembers":3,"upTikvStores":3,"offlineTikvStores":0,"tombstoneTikvPods":0,
           "stoppedTikvStores":0,"evictLeaderStores":[],"maxReplicas":3},
          {"seq":2,"time":"2025-01-15T08:01:50Z","cluster":"ns/basic","event":"store-offline",
           "store":4,"pod":"basic-tikv-3","member":null,"leader":"basic-pd-0","members":3,
           "healthyMembers":3,"upTikvStores":3,"offlineTikvStores":1,"tombstoneTikvPods":0,
           "stoppedTikvStores":0,"evictLeaderStores":[],"maxReplicas":3},
          {"seq":1,"time":"2025-01-15T08:01:51Z","cluster":"other/x","event":"store-offline",
           "store":9,"pod":"x-tikv-0","member":null,"leader":"x-pd-0","members":3,
           "healthyMembers":3,"upTikvStores":3,"offlineTikvStores":2,"tombstoneTikvPods":0,
           "stoppedTikvStores":0,"evictLeaderStores":[],"maxReplicas":3} ]
        """);
    Files.writeString(dir.resolve("calls.json"), """
        [ {"time":"2025-01-15T08:01:49.5Z","cluster":"ns/basic","component":"pd","instance":null,
           "method":"DELETE","path":"/pd/api/v1/store/4","query":null,"body":"","status":200},
          {"time":"2025-01-15T08:01:55Z","cluster":"ns/basic","component":"pd","instance":null,
           "method":"DELETE","path":"/pd/api/v1/store/4","query":null,"body":"","status":200} ]
        """);
    Files.writeString(dir.resolve("clusters.json"),
        "[{\"cluster\":\"ns/basic\",\"evictLeaderStores\":[]}]");
    Files.writeString(dir.resolve("schedulers.json"), "[\n  \"balance-region-scheduler\"\n]\n");

    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = CrashSafetyCheck.run(new String[] {"--run-dir=" + dir, "--cluster=ns/basic",
        "--since=2025-01-15T08:01:40Z", "--scale-in-parallelism=1"},
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));

    String printed = out.toString(StandardCharsets.UTF_8);
    assertEquals(1, code, printed + err);
    List<String> lines = printed.lines().toList();
    assertEquals("crash-safety-check cluster=ns/basic since=2025-01-15T08:01:40Z journal=2 "
        + "calls=2 scaleInParallelism=1", lines.get(0));
    assertTrue(lines.get(1).startsWith("violation rule=delete-offline-store "
        + "time=2025-01-15T08:01:55Z detail=\"DELETE /pd/api/v1/store/4"), lines.get(1));
    assertEquals("violations=1", lines.get(2));
    assertEquals(3, lines.size());
  }

  @Test
  void commandLineRefusesBadInput(@TempDir Path dir) {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream errors = new PrintStream(err, true, StandardCharsets.UTF_8);
    PrintStream out = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);

    assertEquals(2, CrashSafetyCheck.run(new String[] {"--cluster=ns/basic"}, out, errors));
    assertEquals(2, CrashSafetyCheck.run(new String[] {"--run-dir=" + dir, "--cluster=ns/basic",
        "--since=yesterday"}, out, errors));
    // No files in the directory.
    assertEquals(2, CrashSafetyCheck.run(new String[] {"--run-dir=" + dir, "--cluster=ns/basic",
        "--since=2025-01-15T08:01:40Z"}, out, errors));
    String text = err.toString(StandardCharsets.UTF_8);
    assertTrue(text.contains("--run-dir is required"), text);
    assertTrue(text.contains("--since: invalid instant 'yesterday'"), text);
    assertTrue(text.contains("cannot read the run"), text);
  }

  private static Call deleteMember(long second, String id, int status) {
    return new Call(T0.plusSeconds(second), "DELETE", "/pd/api/v1/members/id/" + id, null, status);
  }

  /** basic-pd-1 unhealthy, then deleted by id (a PD failover). */
  private static Journal failover() {
    Journal j = new Journal(3);
    j.at(11, "member-added", null, "basic-pd-1");
    j.member(110, "basic-pd-1", false);
    j.members--; // the unhealthy member leaves; the two others are healthy
    return j.at(121, "member-deleted", null, "basic-pd-1");
  }

  @Test
  void aFailoverOfAnUnhealthyMemberPasses() {
    assertEquals(List.of(), check(failover(), List.of(deleteMember(120, "7", 200)), 1));
  }

  @Test
  void aMemberIdDeletedTwiceIsAViolation() {
    List<Violation> v = check(failover(),
        List.of(deleteMember(120, "7", 200), deleteMember(125, "7", 200)), 1);
    assertEquals(List.of("pd-member-deleted-twice"), rules(v));
    assertTrue(v.get(0).detail().contains("again"), v.get(0).detail());
    assertEquals(List.of(), check(failover(),
        List.of(deleteMember(120, "7", 200), deleteMember(125, "7", 503)), 1), "a 503 deleted nothing");
  }

  @Test
  void deletingAHealthyMemberByIdIsAViolation() {
    Journal j = new Journal(3);
    j.at(11, "member-added", null, "basic-pd-1");
    j.members--;
    j.at(121, "member-deleted", null, "basic-pd-1");
    List<Violation> v = check(j, List.of(deleteMember(120, "7", 200)), 1);
    assertEquals(List.of("pd-failover-healthy-member"), rules(v));
    assertTrue(v.get(0).detail().contains("basic-pd-1"), v.get(0).detail());
  }
}
