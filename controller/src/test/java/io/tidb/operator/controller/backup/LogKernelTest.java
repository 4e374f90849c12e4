package io.tidb.operator.controller.backup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.v1alpha1.backup.BackupCondition;
import io.tidb.operator.api.v1alpha1.backup.BackupStatus;
import io.tidb.operator.controller.backup.LogKernel.Action;
import io.tidb.operator.controller.backup.LogKernel.Kernel;
import io.tidb.operator.controller.backup.LogKernel.Verdict;
import io.tidb.operator.controller.fixtures.LogTaskValues;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The task's state read from its pause mark, and what upstream's tracker makes of it. */
class LogKernelTest {

  private static final Instant NOW = Instant.parse("2026-12-02T03:00:00Z");
  private static final byte[] DISK_FULL = LogTaskValues.streamBackupError(1_764_644_400_000L, "BR:KV:ErrKVStorage",
      "Failed to backup: disk full", 5);

  private static byte[] pause(String severity, String type, String payload) {
    return LogTaskValues.pause(severity, type, payload.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void pauseReasonsAsUpstreamReadsThem() {
    assertEquals("manual", LogKernel.pauseReason(new byte[0]), "BR's V1 pause: an empty value");
    assertEquals("manual", LogKernel.pauseReason(pause("MANUAL", "", "")));
    assertEquals("Storage connection failed", LogKernel.pauseReason(pause("ERROR", "text/plain", "Storage connection failed")));
    assertEquals("Disk full error", LogKernel.pauseReason(pause("ERROR", "text/plain;charset=UTF-8", "Disk full error")));
    assertEquals("Paused by error(store 5): Failed to backup: disk full",
        LogKernel.pauseReason(LogTaskValues.pause("ERROR", LogTaskValues.STREAM_BACKUP_ERROR_TYPE, DISK_FULL)),
        "TiKV's error pause: the protobuf StreamBackupError");
    assertEquals("Paused by error(store 5): Failed to backup: disk full", LogKernel.pauseReason(LogTaskValues.pause("ERROR",
        "application/x-protobuf; messagetype=brpb.StreamBackupError", DISK_FULL)), "parameter names in any case");
    assertEquals("unknown", LogKernel.pauseReason("{invalid json}".getBytes(StandardCharsets.UTF_8)));
    assertEquals("error", LogKernel.pauseReason(pause("ERROR", "application/xml", "<error>test</error>")));
    assertEquals("error", LogKernel.pauseReason(pause("ERROR", "application/x-protobuf", "some data")), "no messagetype");
    assertEquals("error", LogKernel.pauseReason(pause("ERROR", "application/x-protobuf; messagetype=other.Type", "x")));
    assertEquals("error", LogKernel.pauseReason(pause("ERROR", LogTaskValues.STREAM_BACKUP_ERROR_TYPE,
        "invalid protobuf data")), "not a StreamBackupError");
    assertEquals("", LogKernel.pauseReason(pause("ERROR", "text/plain", "")));
    assertEquals("error", LogKernel.pauseReason(pause("ERROR", "not a valid mime type", "test")));
    assertEquals("test message", LogKernel.pauseReason(pause("UNKNOWN", "text/plain", "test message")));
  }

  @Test
  void aStreamBackupErrorNeedsItsMessage() {
    assertEquals(Optional.of("Paused by error(store 0): boom"),
        LogKernel.streamBackupError(LogTaskValues.streamBackupError(0, "", "boom", 0)));
    assertEquals(Optional.empty(), LogKernel.streamBackupError(new byte[] {0x08, 0x01}), "happen_at only");
    assertEquals(Optional.empty(), LogKernel.streamBackupError(new byte[] {0x1a, 0x05, 'a'}), "a length past the end");
    assertEquals(Optional.empty(), LogKernel.streamBackupError(new byte[] {0x0b}), "a group, never in this message");
  }

  @Test
  void onlyTheTasksOwnPauseKeyCounts() {
    assertEquals(Kernel.RUNNING, LogKernel.of("pitr", Map.of()));
    assertEquals(Kernel.RUNNING, LogKernel.of("pitr", Map.of("/tidb/br-stream/pause/pitr2", new byte[0])),
        "another task whose name starts with this one's");
    assertEquals(new Kernel(true, "manual"), LogKernel.of("pitr", Map.of("/tidb/br-stream/pause/pitr", new byte[0])));
    assertEquals("/tidb/br-stream/pause/pitr", LogKernel.pauseKey("pitr"));
  }

  @Test
  void anErrorPauseIsRetryFailedAtOnce() {
    Verdict v = LogKernel.decide("log-start", "Running", new Kernel(true, "disk full"), null);
    assertEquals(new Verdict(Action.ERROR_PAUSED, "disk full", null), v);
    assertEquals(Action.ERROR_PAUSED, LogKernel.decide("log-pause", "Paused", new Kernel(true, "disk full"), null).action());
  }

  @Test
  void aDifferenceIsCorrectedOnlyWhenTheSameCommandSawItOnTheReadBefore() {
    Kernel paused = new Kernel(true, "manual");
    Verdict first = LogKernel.decide("log-start", "Running", paused, null);
    assertEquals(new Verdict(Action.NONE, "", "log-start"), first, "seen once: remembered only");
    assertEquals(Action.TO_PAUSED, LogKernel.decide("log-start", "Running", paused, first.suspect()).action());
    assertEquals(new Verdict(Action.NONE, "", "log-start"), LogKernel.decide("log-start", "Running", paused, "log-pause"),
        "a difference seen for another command starts over");
    assertEquals(new Verdict(Action.NONE, "", null), LogKernel.decide("log-start", "Running", Kernel.RUNNING, "log-start"),
        "agreeing again forgets it");
    assertEquals(Action.TO_RUNNING, LogKernel.decide("log-pause", "Paused", Kernel.RUNNING, "log-pause").action());
    assertEquals(new Verdict(Action.NONE, "", "log-start"), LogKernel.decide("log-start", "Running", new Kernel(true, ""), null),
        "an empty reason is no error pause: a pause as one by hand");
  }

  @Test
  void aRetryFailedLogBackupWhoseTaskRunsAgainIsRunning() {
    assertEquals(Action.RECOVERED, LogKernel.decide("log-start", "RetryFailed", Kernel.RUNNING, null).action());
    assertEquals(Action.NONE, LogKernel.decide("log-start", "Running", Kernel.RUNNING, null).action());
  }

  private static BackupStatus running() {
    return ApiObjects.parse("""
        phase: Running
        commitTs: "464000000000000000"
        conditions:
        - {type: Running, status: "True", command: log-start, lastTransitionTime: "2026-12-02T02:00:00Z"}
        logSubCommandStatuses:
          log-start: {command: log-start, phase: Complete}
          log-resume: {command: log-resume, phase: Complete}
        """, BackupStatus.class);
  }

  private static BackupCondition condition(BackupStatus s, String type) {
    return s.getConditions().stream().filter(c -> type.equals(c.getType())).findFirst().orElseThrow();
  }

  @Test
  void anErrorPauseOfTheStartMarksTheLogBackupRetryFailedOnce() {
    BackupStatus s = running();
    assertTrue(LogKernel.apply(s, "log-start", new Verdict(Action.ERROR_PAUSED, "disk full", null), 3L, NOW));
    assertEquals("RetryFailed", s.getPhase());
    BackupCondition c = condition(s, "RetryFailed");
    assertEquals("True", c.getStatus());
    assertEquals("LogBackupErrorPaused", c.getReason());
    assertEquals("Log backup paused due to error: disk full", c.getMessage());
    assertEquals("log-start", c.getCommand());
    assertEquals("RetryFailed", s.getLogSubCommandStatuses().get("log-start").getPhase());
    assertEquals("LogBackupErrorPaused", s.getLogSubCommandStatuses().get("log-start").getConditions().get(0).getReason());
    assertEquals("2026-12-02T03:00:00Z", s.getTimeSynced());

    BackupStatus again = ApiObjects.deepCopy(s);
    assertFalse(LogKernel.apply(again, "log-start", new Verdict(Action.ERROR_PAUSED, "disk full", null), 3L,
        NOW.plusSeconds(60)));
    assertEquals(s, again, "the same error pause read again writes nothing, not even timeSynced");
  }

  @Test
  void anErrorPauseWhilePausedMarksOnlyThePausesEntry() {
    BackupStatus s = running();
    s.setPhase("Paused");
    assertTrue(LogKernel.apply(s, "log-pause", new Verdict(Action.ERROR_PAUSED, "disk full", null), 3L, NOW));
    assertEquals("Paused", s.getPhase(), "upstream's updater passes only the start's condition on");
    assertEquals("RetryFailed", s.getLogSubCommandStatuses().get("log-pause").getPhase());
  }

  @Test
  void aTaskPausedOutsideTheOperatorIsPaused() {
    BackupStatus s = running();
    assertTrue(LogKernel.apply(s, "log-start", new Verdict(Action.TO_PAUSED, "", null), 3L, NOW));
    assertEquals("Paused", s.getPhase());
    BackupCondition c = condition(s, "Paused");
    assertEquals("LogBackupKernelSync", c.getReason());
    assertEquals("Synced with kernel state: paused", c.getMessage());
    assertEquals("log-pause", c.getCommand());
    assertEquals("Complete", s.getLogSubCommandStatuses().get("log-pause").getPhase());
    assertEquals("Repeatable", s.getLogSubCommandStatuses().get("log-resume").getPhase(), "a resume is to run again");
    assertEquals(Optional.of("log-resume"), LogBackupCommands.next(new io.tidb.operator.api.v1alpha1.backup.BackupSpec(), s),
        "the spec still asks for the task to run: it is resumed, as upstream");
  }

  @Test
  void aTaskResumedOutsideTheOperatorIsRunning() {
    BackupStatus s = running();
    s.setPhase("Paused");
    s.getLogSubCommandStatuses().put("log-pause", ApiObjects.parse("command: log-pause\nphase: Complete\n",
        io.tidb.operator.api.v1alpha1.backup.LogSubCommandStatus.class));
    assertTrue(LogKernel.apply(s, "log-pause", new Verdict(Action.TO_RUNNING, "", null), 3L, NOW));
    assertEquals("Running", s.getPhase());
    assertEquals("Synced with kernel state: running", condition(s, "Running").getMessage());
    assertEquals("log-resume", condition(s, "Running").getCommand());
    assertEquals("Repeatable", s.getLogSubCommandStatuses().get("log-pause").getPhase());
  }

  @Test
  void aCommandWhoseRunFailedIsNotComparedWithTheTask() {
    BackupStatus s = running();
    assertTrue(LogKernel.compared(s, "log-pause"), "no entry yet");
    assertTrue(LogKernel.compared(s, "log-start"), "Complete");
    s.getLogSubCommandStatuses().put("log-pause", ApiObjects.parse("command: log-pause\nphase: Failed\n",
        io.tidb.operator.api.v1alpha1.backup.LogSubCommandStatus.class));
    assertFalse(LogKernel.compared(s, "log-pause"), "BR refused the pause: that result stands, the Job is not run again");
    assertTrue(LogKernel.compared(new BackupStatus(), "log-start"));
  }

  @Test
  void aRecoveredTaskRunsAgainAndTheRetryFailedConditionIsFalse() {
    BackupStatus s = running();
    LogKernel.apply(s, "log-start", new Verdict(Action.ERROR_PAUSED, "disk full", null), 3L, NOW);
    assertTrue(LogKernel.apply(s, "log-start", new Verdict(Action.RECOVERED, "", null), 3L, NOW.plusSeconds(60)));
    assertEquals("Running", s.getPhase());
    assertEquals("False", condition(s, "RetryFailed").getStatus());
    assertEquals("Complete", s.getLogSubCommandStatuses().get("log-start").getPhase());
    assertEquals("2026-12-02T03:01:00Z", s.getTimeSynced());
  }

  @Test
  void nothingToDoChangesNothing() {
    BackupStatus s = running();
    assertFalse(LogKernel.apply(s, "log-start", new Verdict(Action.NONE, "", "log-start"), 3L, NOW));
    assertEquals(running(), s);
    assertNull(s.getTimeSynced());
  }
}
