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
}
