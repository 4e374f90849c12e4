package io.tidb.operator.controller.backup.manager;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.v1alpha1.backup.BackupCondition;
import io.tidb.operator.api.v1alpha1.backup.BackupStatus;
import io.tidb.operator.api.v1alpha1.backup.LogSubCommandStatus;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Upstream's Prepare, as the backup-manager writes it when it begins. */
class PrepareStatusTest {

  private static final Instant NOW = Instant.parse("2026-12-02T03:00:00Z");

  private static BackupStatus scheduled() {
    return ApiObjects.parse("""
        phase: Scheduled
        backupPath: s3://b/p
        timeStarted: "2026-12-01T00:00:00Z"
        conditions:
        - {type: Valid, status: "True", reason: Valid, message: spec passed validation, lastTransitionTime: "2026-12-02T02:59:00Z"}
        - {type: Scheduled, status: "True", reason: JobCreated, message: Job backup-x created, lastTransitionTime: "2026-12-02T02:59:00Z"}
        """, BackupStatus.class);
  }

  private static String shape(BackupCondition c) {
    return c.getType() + " " + c.getStatus() + " reason=" + c.getReason() + " message=" + c.getMessage() + " command="
        + c.getCommand() + " at " + c.getLastTransitionTime();
  }

  @Test
  void aSnapshotBackupGoesPrepareKeepingEveryCondition() {
    BackupStatus patch = PrepareStatus.of(scheduled(), null, 1L, NOW);
    assertEquals("Prepare", patch.getPhase());
    assertEquals(List.of("Valid True reason=Valid message=spec passed validation command=null at 2026-12-02T02:59:00Z",
            "Scheduled True reason=JobCreated message=Job backup-x created command=null at 2026-12-02T02:59:00Z",
            "Prepare True reason=null message=null command=null at 2026-12-02T03:00:00Z"),
        patch.getConditions().stream().map(PrepareStatusTest::shape).toList());
    assertNull(patch.getLogSubCommandStatuses());
    assertNull(patch.getBackupPath(), "only the fields it merges: the controller's others stay its own");
    assertNull(patch.getTimeStarted());
  }

  @Test
  void theLogStartPreparesTheLogBackupAndItsCommand() {
    BackupStatus current = scheduled();
    LogSubCommandStatus start = new LogSubCommandStatus();
    start.setCommand("log-start");
    start.setPhase("Scheduled");
    current.setLogSubCommandStatuses(new java.util.HashMap<>(java.util.Map.of("log-start", start)));
    BackupStatus patch = PrepareStatus.of(current, "log-start", 1L, NOW);
    assertEquals("Prepare", patch.getPhase());
    assertEquals("Prepare True reason=null message=null command=log-start at 2026-12-02T03:00:00Z",
        shape(patch.getConditions().get(2)));
    LogSubCommandStatus sub = patch.getLogSubCommandStatuses().get("log-start");
    assertEquals("log-start", sub.getCommand());
    assertEquals("Prepare", sub.getPhase());
    assertEquals(List.of("Prepare True reason=null message=null command=log-start at 2026-12-02T03:00:00Z"),
        sub.getConditions().stream().map(PrepareStatusTest::shape).toList());
  }

  @Test
  void anotherLogCommandPreparesOnlyItsOwnEntry() {
    BackupStatus current = scheduled();
    current.setPhase("Running");
    BackupStatus patch = PrepareStatus.of(current, "log-pause", 3L, NOW);
    assertNull(patch.getPhase(), "the log backup keeps its phase (upstream: only the start moves it)");
    assertNull(patch.getConditions());
    assertEquals(List.of("log-pause"), List.copyOf(patch.getLogSubCommandStatuses().keySet()));
    LogSubCommandStatus sub = patch.getLogSubCommandStatuses().get("log-pause");
    assertEquals("Prepare", sub.getPhase());
    assertEquals("Prepare True reason=null message=null command=log-pause at 2026-12-02T03:00:00Z",
        shape(sub.getConditions().get(0)));
  }

  @Test
  void aSecondPrepareOfTheCommandKeepsItsEarlierConditionsAndTime() {
    BackupStatus current = scheduled();
    LogSubCommandStatus pause = new LogSubCommandStatus();
    pause.setCommand("log-pause");
    pause.setPhase("Complete");
    BackupCondition earlier = new BackupCondition();
    earlier.setType("Prepare");
    earlier.setStatus("True");
    earlier.setCommand("log-pause");
    earlier.setLastTransitionTime("2026-12-01T00:00:00Z");
    pause.setConditions(List.of(earlier));
    current.setLogSubCommandStatuses(java.util.Map.of("log-pause", pause));
    LogSubCommandStatus sub = PrepareStatus.of(current, "log-pause", 2L, NOW).getLogSubCommandStatuses().get("log-pause");
    assertEquals("Prepare", sub.getPhase());
    assertEquals("2026-12-01T00:00:00Z", sub.getConditions().get(0).getLastTransitionTime(), "status unchanged");
  }
}
