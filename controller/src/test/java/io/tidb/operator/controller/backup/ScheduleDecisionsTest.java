package io.tidb.operator.controller.backup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tidb.operator.api.v1alpha1.backup.BackupScheduleSpec;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ScheduleDecisionsTest {

  private static final Instant T = Instant.parse("2024-01-02T03:00:00Z");

  @Test
  void dueIsTheLatestCronTimeAfterTheLastOne() {
    assertEquals(Optional.empty(), ScheduleDecisions.due("0 * * * *", T, T.plusSeconds(3599)));
    assertEquals(Optional.of(T.plusSeconds(3600)), ScheduleDecisions.due("0 * * * *", T, T.plusSeconds(3600)));
    assertEquals(Optional.of(T.plusSeconds(3 * 3600)), ScheduleDecisions.due("0 * * * *", T, T.plusSeconds(3 * 3600 + 5)),
        "missed times are not caught up one by one");
    assertEquals(Optional.of(T.plusSeconds(7200)), ScheduleDecisions.next("0 * * * *", T.plusSeconds(3600)));
    assertEquals("daily-2024-01-02t03-00-00", ScheduleDecisions.backupName("daily", T));
  }

  private static ScheduleDecisions.Observed b(String name, int hours, String phase) {
    return new ScheduleDecisions.Observed(name, T.plusSeconds(hours * 3600L), phase);
  }

  @Test
  void maxBackupsDeletesTheOldestButNeverARunningOne() {
    BackupScheduleSpec spec = new BackupScheduleSpec();
    spec.setMaxBackups(2);
    spec.setMaxReservedTime("1h");
    List<ScheduleDecisions.Observed> all = List.of(b("b3", 3, "Complete"), b("b1", 1, "Running"), b("b0", 0, "Failed"),
        b("b2", 2, "Complete"));
    assertEquals(List.of(b("b0", 0, "Failed")), ScheduleDecisions.expired(spec, all, T.plusSeconds(4 * 3600)),
        "maxBackups wins over maxReservedTime; b1 still runs");
  }

  @Test
  void maxReservedTimeDeletesWhatIsOlder() {
    BackupScheduleSpec spec = new BackupScheduleSpec();
    spec.setMaxReservedTime("90m");
    List<ScheduleDecisions.Observed> all = List.of(b("b0", 0, "Complete"), b("b1", 1, "Complete"), b("b2", 2, "Complete"));
    assertEquals(List.of(b("b0", 0, "Complete"), b("b1", 1, "Complete")),
        ScheduleDecisions.expired(spec, all, T.plusSeconds(3 * 3600)));
    spec.setMaxReservedTime(null);
    assertEquals(List.of(), ScheduleDecisions.expired(spec, all, T.plusSeconds(3 * 3600)), "no retention: keep all");
  }

  @Test
  void theSearchStartsAtTheLastBackupElseTheCleanTimeElseTheCreation() {
    assertEquals(Instant.parse("2026-01-03T00:00:00Z"), ScheduleDecisions.since("2026-01-03T00:00:00Z",
        "2026-01-02T00:00:00Z", "2026-01-01T00:00:00Z"));
    assertEquals(Instant.parse("2026-01-02T00:00:00Z"), ScheduleDecisions.since(null,
        "2026-01-02T00:00:00Z", "2026-01-01T00:00:00Z"));
    assertEquals(Instant.parse("2026-01-01T00:00:00Z"), ScheduleDecisions.since(null, null, "2026-01-01T00:00:00Z"));
  }

  @Test
  void deletingEveryBackupIsToldApart() {
    ScheduleDecisions.Observed a = new ScheduleDecisions.Observed("a", Instant.parse("2026-01-01T00:00:00Z"), "Complete");
    ScheduleDecisions.Observed b = new ScheduleDecisions.Observed("b", Instant.parse("2026-01-02T00:00:00Z"), "Complete");
    assertTrue(ScheduleDecisions.deletesAll(List.of(a, b), List.of(a, b)));
    assertFalse(ScheduleDecisions.deletesAll(List.of(a, b), List.of(a)));
    assertFalse(ScheduleDecisions.deletesAll(List.of(), List.of()));
  }

  @Test
  void onlyTheLastBackupInFlightBlocks() {
    List<ScheduleDecisions.Observed> all = List.of(b("b0", 0, "Running"), b("b1", 1, null));
    assertEquals(Optional.of(b("b1", 1, null)), ScheduleDecisions.running(all, "b1"));
    assertEquals(Optional.empty(), ScheduleDecisions.running(List.of(b("b1", 1, "Failed")), "b1"));
    assertEquals(Optional.empty(), ScheduleDecisions.running(all, "gone"));
  }

  private static long tso(Instant t) {
    return t.toEpochMilli() << 18;
  }

  private static ScheduleDecisions.Observed done(String name, int hours) {
    return new ScheduleDecisions.Observed(name, T.plusSeconds(hours * 3600L), "Complete", tso(T.plusSeconds(hours * 3600L + 60)));
  }

  private static Optional<ScheduleDecisions.LogObserved> log(int startHours, Integer checkpointHours, Long truncateUntil) {
    return Optional.of(new ScheduleDecisions.LogObserved("log-s", tso(T.plusSeconds(startHours * 3600L)),
        checkpointHours == null ? null : tso(T.plusSeconds(checkpointHours * 3600L)), truncateUntil));
  }

  @Test
  void theLogBackupIsNamedAndFiledAsUpstreamAndCreatedOnce() {
    assertEquals("log-nightly", ScheduleDecisions.logBackupName("nightly"));
    assertEquals("log-2024-01-02t03-00-00", ScheduleDecisions.logBackupFolder(T));
    assertEquals(ScheduleDecisions.LogBackupStep.CREATE, ScheduleDecisions.logBackupStep(true, null, Optional.empty()));
    assertEquals(ScheduleDecisions.LogBackupStep.ADOPT, ScheduleDecisions.logBackupStep(true, null, Optional.of(true)),
        "created before a restart, not recorded yet");
    assertEquals(ScheduleDecisions.LogBackupStep.NAME_TAKEN, ScheduleDecisions.logBackupStep(true, null, Optional.of(false)));
    assertEquals(ScheduleDecisions.LogBackupStep.NONE, ScheduleDecisions.logBackupStep(true, "log-nightly", Optional.empty()),
        "recorded once: never created again, even when deleted");
    assertEquals(ScheduleDecisions.LogBackupStep.NONE, ScheduleDecisions.logBackupStep(false, null, Optional.empty()));
  }

  @Test
  void maxReservedTimeWithALogKeepsTheRestoresStartingPointAndTruncatesUpToIt() {
    BackupScheduleSpec spec = new BackupScheduleSpec();
    spec.setMaxReservedTime("24h");
    // upstream's example: snapshots at 0h, 24h, 48h, 72h; the log from 0h to 80h; expiry point 56h
    List<ScheduleDecisions.Observed> all = List.of(done("d0", 0), done("d1", 24), done("d2", 48), done("d3", 72));
    ScheduleDecisions.Retention r = ScheduleDecisions.retention(spec, all, log(0, 80, null), T);
    assertEquals(List.of(done("d0", 0), done("d1", 24)), r.expired(), "d2 kept: a restore to 56h starts from it");
    assertEquals(Optional.of(done("d2", 48).commitTs()), r.truncateUntil());

    assertEquals(Optional.empty(), ScheduleDecisions.retention(spec, all, log(0, 80, done("d2", 48).commitTs()), T)
        .truncateUntil(), "already asked for");
    assertEquals(Optional.empty(), ScheduleDecisions.retention(spec, all, log(50, 80, null), T).truncateUntil(),
        "d2's commit ts is before the log starts: nothing to truncate");
    assertEquals(List.of(done("d0", 0), done("d1", 24)), ScheduleDecisions.retention(spec, all, log(50, 80, null), T)
        .expired());
    assertEquals(new ScheduleDecisions.Retention(List.of(done("d0", 0), done("d1", 24)), Optional.empty()),
        ScheduleDecisions.retention(spec, all, log(0, null, null), T),
        "no checkpoint yet: the latest snapshot sets the expiry point (48h), the log is not truncated");
  }

  @Test
  void maxReservedTimeWithALogDeletesNothingWhileOnlyTheStartingPointIsOld() {
    BackupScheduleSpec spec = new BackupScheduleSpec();
    spec.setMaxReservedTime("24h");
    List<ScheduleDecisions.Observed> all = List.of(done("d0", 0), done("d1", 30));
    assertEquals(new ScheduleDecisions.Retention(List.of(), Optional.empty()),
        ScheduleDecisions.retention(spec, all, log(0, 40, null), T), "upstream truncates only when it deletes");
    List<ScheduleDecisions.Observed> withFailed = List.of(b("f", 1, "Failed"), done("d1", 30), b("r", 50, "Running"));
    assertEquals(List.of(b("f", 1, "Failed")), ScheduleDecisions.retention(spec, withFailed, log(0, 60, null), T).expired(),
        "a failed snapshot (no commit ts) is never the starting point; a running one is never deleted");
  }

  @Test
  void maxBackupsWithALogNeverCountsItAndTruncatesUpToTheOldestSnapshotKept() {
    BackupScheduleSpec spec = new BackupScheduleSpec();
    spec.setMaxBackups(2);
    List<ScheduleDecisions.Observed> all = List.of(done("d0", 0), done("d1", 1), done("d2", 2));
    ScheduleDecisions.Retention r = ScheduleDecisions.retention(spec, all, log(0, 3, null), T);
    assertEquals(List.of(done("d0", 0)), r.expired());
    assertEquals(Optional.of(done("d1", 1).commitTs()), r.truncateUntil());
    assertEquals(new ScheduleDecisions.Retention(List.of(), Optional.empty()),
        ScheduleDecisions.retention(spec, List.of(done("d1", 1), done("d2", 2)), log(0, 3, null), T));
    assertEquals(new ScheduleDecisions.Retention(List.of(done("d0", 0)), Optional.empty()),
        ScheduleDecisions.retention(spec, all, Optional.empty(), T), "without a log: the snapshots only");
  }
}
