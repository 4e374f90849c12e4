package io.tidb.operator.controller.backup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.v1alpha1.backup.BackupSpec;
import io.tidb.operator.api.v1alpha1.backup.BackupStatus;
import io.tidb.operator.controller.backup.manager.BrSummary;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** A log backup's decisions: the command asked for, done or waiting, BR's command lines. */
class LogBackupCommandsTest {

  private static BackupSpec spec(String logSubcommand, Boolean logStop, String truncateUntil) {
    BackupSpec s = ApiObjects.parse("""
        backupMode: log
        br: {cluster: basic, concurrency: 4}
        tableFilter: ["db1.*"]
        s3: {provider: minio, bucket: logs, prefix: p, endpoint: "http://127.0.0.1:9000"}
        """, BackupSpec.class);
    s.setLogSubcommand(logSubcommand);
    s.setLogStop(logStop);
    s.setLogTruncateUntil(truncateUntil);
    return s;
  }

  private static BackupStatus status(String phase, String commitTs, String truncatedUntil) {
    BackupStatus s = new BackupStatus();
    s.setPhase(phase);
    s.setCommitTs(commitTs);
    s.setLogSuccessTruncateUntil(truncatedUntil);
    return s;
  }

  private static String nul(String s) {
    return s == null || s.isEmpty() ? null : s;
  }

  /** Upstream's ParseLogBackupSubcommand, row by row. */
  @ParameterizedTest(name = "logSubcommand={0} logStop={1} until={2} phase={3} commitTs={4} truncated={5} -> {6}")
  @CsvSource({
      // subcommand, logStop, truncateUntil, phase, commitTs, truncatedUntil, expected
      ",          ,      ,     ,         ,    , log-start",
      "log-start, ,      ,     ,         ,    , log-start",
      ",          true, ,      Running,  100,   , log-stop",
      ",          ,      ,     Stopped,  100,   , log-stop",
      ",          ,      ,     Paused,   100,   , log-resume",
      "log-start, ,      ,     Paused,   100,   , log-resume",
      "log-pause, ,      ,     Running,  100,   , log-pause",
      "log-stop,  ,      ,     Running,  100,   , log-stop",
      "log-start, ,      200,  Running,  100,   , log-truncate",
      "log-start, ,      200,  Scheduled,   ,   , log-start",
      "log-start, ,      200,  Running,  100, 200, log-start",
      "log-pause, ,      200,  Paused,   100,   , log-truncate",
      "log-pause, ,      200,  Running,  100,   , log-pause",
      "log-stop,  ,      200,  Stopped,  100,   , log-truncate",
  })
  void theCommandAskedFor(String sub, String logStop, String until, String phase, String commitTs, String truncated,
      String expected) {
    assertEquals(Optional.of(expected), LogBackupCommands.next(
        spec(nul(sub), logStop == null ? null : Boolean.valueOf(logStop), nul(until)),
        status(nul(phase), nul(commitTs), nul(truncated))));
  }

  @Test
  void deletingStopsALogBackupThatStartedAndIsNotStoppedYet() {
    java.util.function.BiFunction<BackupSpec, BackupStatus, Boolean> stops = (spec, status) -> {
      io.tidb.operator.api.v1alpha1.backup.Backup b = new io.tidb.operator.api.v1alpha1.backup.Backup();
      b.setSpec(spec);
      b.setStatus(status);
      return LogBackupCommands.stopsOnDelete(b);
    };
    assertTrue(stops.apply(spec(null, null, null), status("Running", "100", null)));
    assertTrue(stops.apply(spec(null, null, null), status("Paused", "100", null)));
    assertTrue(stops.apply(spec(null, null, null), status("Failed", "100", null)), "a failed pause leaves the task");
    assertFalse(stops.apply(spec(null, null, null), status("Stopped", "100", null)));
    assertFalse(stops.apply(spec(null, null, null), status("Scheduled", null, null)), "never started");
    assertFalse(stops.apply(spec(null, null, null), null));
    BackupSpec snapshot = spec(null, null, null);
    snapshot.setBackupMode("snapshot");
    assertFalse(stops.apply(snapshot, status("Running", "100", null)), "only a log backup has a task");
  }

  @Test
  void anUnknownSubcommandAsksForNothing() {
    assertEquals(Optional.empty(), LogBackupCommands.next(spec("log-resume", null, null), status(null, null, null)));
  }

  @Test
  void whatIsDoneAlready() {
    BackupSpec s = spec(null, null, "300");
    assertFalse(LogBackupCommands.done(s, status(null, null, null), LogBackupCommands.START));
    assertTrue(LogBackupCommands.done(s, status("Running", "100", null), LogBackupCommands.START));
    assertTrue(LogBackupCommands.done(s, status("Paused", "100", null), LogBackupCommands.PAUSE));
    assertTrue(LogBackupCommands.done(s, status("Running", "100", null), LogBackupCommands.RESUME));
    assertTrue(LogBackupCommands.done(s, status("Stopped", "100", null), LogBackupCommands.STOP));
    assertFalse(LogBackupCommands.done(s, status("Running", "100", "200"), LogBackupCommands.TRUNCATE));
    assertTrue(LogBackupCommands.done(s, status("Running", "100", "300"), LogBackupCommands.TRUNCATE));
    assertTrue(LogBackupCommands.done(s, status("Running", "400", null), LogBackupCommands.TRUNCATE),
        "until before the log's start: nothing to truncate");
    assertTrue(LogBackupCommands.done(spec(null, null, "2020-01-01 00:00:00"), status("Running", "100", "446543216512835585"),
        LogBackupCommands.TRUNCATE), "a time compares as its TSO");
  }

  @Test
  void everyCommandButTheStartWaitsForIt() {
    assertEquals(Optional.empty(), LogBackupCommands.waitingFor(status(null, null, null), LogBackupCommands.START));
    assertTrue(LogBackupCommands.waitingFor(status(null, null, null), LogBackupCommands.PAUSE).isPresent());
    assertEquals(Optional.empty(), LogBackupCommands.waitingFor(status("Running", "100", null), LogBackupCommands.STOP));
  }

  @Test
  void jobNamesAndPhasesAsUpstream() {
    assertEquals("backup-pitr-log-start", LogBackupCommands.jobName("pitr", LogBackupCommands.START));
    assertEquals("Paused", LogBackupCommands.phaseAfter(LogBackupCommands.PAUSE, "Running"));
    assertEquals("Running", LogBackupCommands.phaseAfter(LogBackupCommands.RESUME, "Paused"));
    assertEquals("Stopped", LogBackupCommands.phaseAfter(LogBackupCommands.STOP, "Running"));
    assertEquals("Paused", LogBackupCommands.phaseAfter(LogBackupCommands.TRUNCATE, "Paused"));
  }

  @Test
  void brLogCommandLines() {
    BackupSpec s = spec(null, null, "446543216512835585");
    s.setCommitTs("446543216512835000");
    assertEquals(List.of("log", "start", "--task-name=pitr", "--start-ts=446543216512835000", "--pd=pd:2379",
        "--storage=s3://logs/p", "--s3.endpoint=http://127.0.0.1:9000", "--s3.provider=minio", "--filter=db1.*",
        "--concurrency=4"), BrCommandLine.log(s, "pd:2379", "pitr", LogBackupCommands.START));
    assertEquals(List.of("log", "pause", "--task-name=pitr", "--pd=pd:2379", "--storage=s3://logs/p",
        "--s3.endpoint=http://127.0.0.1:9000", "--s3.provider=minio", "--concurrency=4"),
        BrCommandLine.log(s, "pd:2379", "pitr", LogBackupCommands.PAUSE));
    assertEquals(List.of("log", "truncate", "--until=446543216512835585", "--pd=pd:2379", "--storage=s3://logs/p",
        "--s3.endpoint=http://127.0.0.1:9000", "--s3.provider=minio", "--concurrency=4"),
        BrCommandLine.log(s, "pd:2379", "pitr", LogBackupCommands.TRUNCATE));
  }

  @Test
  void theStartTsOfBrsTaskLine() {
    List<String> out = List.of(
        "[2026/12/01 19:00:00.000 +00:00] [INFO] [collector.go:77] [\"log start\"] [task-name=pitr] [start-ts=4465432165]",
        "[2026/12/01 19:00:00.000 +00:00] [INFO] [collector.go:77] [\"log start success summary\"] [total-take=12ms]");
    assertEquals(Optional.of("4465432165"), BrSummary.lastField(out, "start-ts"));
    assertEquals(Optional.empty(), BrSummary.lastField(out, "until"));
  }
}
