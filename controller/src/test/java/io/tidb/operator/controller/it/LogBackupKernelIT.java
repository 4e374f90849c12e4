package io.tidb.operator.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.tidb.operator.api.v1alpha1.backup.Backup;
import io.tidb.operator.api.v1alpha1.backup.BackupCondition;
import io.tidb.operator.controller.fixtures.LogTaskValues;
import io.tidb.operator.pd.PdClientOptions;
import io.tidb.operator.pd.PdEtcdClient;
import io.tidb.operator.pdsim.ClusterKey;
import io.tidb.operator.testsupport.ClusterAccess;
import io.tidb.operator.testsupport.WithKubeApiServer;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A running log backup's status follows its task's state in PD's etcd, as upstream's tracker: a
 * task paused with {@code br log pause} outside the operator shows {@code Paused} and, the spec
 * still asking for it to run, is resumed by the operator's {@code log-resume} Job; a task TiKV
 * paused by an error (its pause mark of severity ERROR with the protobuf StreamBackupError, and
 * the store's {@code last-error}) shows {@code RetryFailed} with the error, and runs again once
 * resumed by hand; a {@code last-error} alone, which upstream reads but never acts on, changes
 * nothing; a pause the operator runs after someone paused the task with br directly (only BR's
 * task, not the mark) is refused by BR and fails that command only; no command runs before the
 * start. The BR stand-in writes and deletes BR's pause mark in the simulated PD's etcd when told
 * where it is.
 */
@WithKubeApiServer
class LogBackupKernelIT {

  private static BackupHarness h;
  private static PdEtcdClient etcd;
  private static String pdUrl;

  @BeforeAll
  static void start(ClusterAccess access) throws Exception {
    h = new BackupHarness(access, "log-kernel");
    h.s3.createBucket("logs");
    h.createCluster("basic");
    h.pd.clusters().pd(new ClusterKey(h.namespace, "basic")).addMember("basic-pd-0", 1L);
    h.createS3Secret("s3-secret", LoopbackS3.ACCESS_KEY, LoopbackS3.SECRET_KEY);
    pdUrl = h.pd.pdUrl(new ClusterKey(h.namespace, "basic")).toString();
    etcd = new PdEtcdClient(h.pd.pdUrl(new ClusterKey(h.namespace, "basic")),
        PdClientOptions.defaults().newHttpClient(), Duration.ofSeconds(5));
  }

  @AfterAll
  static void stop() throws Exception {
    if (h != null) {
      h.close();
    }
  }

  /** A log backup whose start's Job has run: Running. */
  private static Path running(String name) throws Exception {
    Path tasks = Files.createTempDirectory("br-log-tasks-");
    h.createBackup("""
        apiVersion: pingcap.com/v1alpha1
        kind: Backup
        metadata: {name: %s}
        spec:
          backupMode: log
          br: {cluster: basic}
          env:
          - {name: BR_STANDIN_LOG_TASKS, value: "%s"}
          - {name: BR_STANDIN_PD_ETCD, value: "%s"}
          s3: {provider: minio, endpoint: "${S3}", bucket: logs, prefix: %s/log, secretName: s3-secret}
        """.formatted(name, tasks, pdUrl, name));
    JobAsKubelet.Run run = h.run(h.awaitJob("backup-" + name + "-log-start"));
    assertEquals(0, run.exitCode(), run.output());
    h.awaitBackup(name, "Running", b -> "Running".equals(b.getStatus().getPhase()));
    return tasks;
  }

  private static BackupCondition condition(Backup b, String type) {
    return BackupHarness.condition(b, type).orElseThrow();
  }

  @Test
  void aTaskPausedOutsideTheOperatorIsPausedThenResumedAsTheSpecAsks() throws Exception {
    Path tasks = running("by-hand");
    // Someone runs br log pause by hand: the stand-in, as BR, marks the task paused in PD's etcd.
    ProcessBuilder byHand = new ProcessBuilder(h.brScript.toString(), "log", "pause", "--task-name=by-hand",
        "--pd=basic-pd." + h.namespace + ":2379", "--storage=s3://logs/by-hand/log").redirectErrorStream(true);
    byHand.environment().put("BR_STANDIN_LOG_TASKS", tasks.toString());
    byHand.environment().put("BR_STANDIN_PD_ETCD", pdUrl);
    Process pause = byHand.start();
    pause.getOutputStream().close();
    String pauseOut = new String(pause.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, pause.waitFor(), pauseOut);
    assertEquals(List.of("/tidb/br-stream/pause/by-hand"),
        List.copyOf(etcd.rangeBytes("/tidb/br-stream/pause/by-hand").keySet()), "BR's pause mark");

    Backup paused = h.awaitBackup("by-hand", "Paused", b -> "Paused".equals(b.getStatus().getPhase()));
    assertEquals("LogBackupKernelSync", condition(paused, "Paused").getReason());
    assertEquals("Synced with kernel state: paused", condition(paused, "Paused").getMessage());
    assertEquals("log-pause", condition(paused, "Paused").getCommand());
    assertEquals("Complete", paused.getStatus().getLogSubCommandStatuses().get("log-pause").getPhase());

    // The spec still says log-start: the operator resumes the task, as upstream's does.
    JobAsKubelet.Run resume = h.run(h.awaitJob("backup-by-hand-log-resume"));
    assertEquals(0, resume.exitCode(), resume.output());
    Backup resumed = h.awaitBackup("by-hand", "Running again", b -> "Running".equals(b.getStatus().getPhase())
        && "Complete".equals(b.getStatus().getLogSubCommandStatuses().get("log-resume").getPhase()));
    assertEquals(List.of(), List.copyOf(etcd.rangeBytes("/tidb/br-stream/pause/by-hand").keySet()),
        "BR's resume removed the pause mark");
    assertTrue(Files.readString(tasks.resolve("by-hand.json")).contains("\"paused\":false"));
    assertEquals("Running", resumed.getStatus().getPhase());
  }

  @Test
  void aTaskPausedByAnErrorIsRetryFailedAndRunsAgainOnceResumedByHand() throws Exception {
    running("failing");
    long commitTs = Long.parseLong(h.backup("failing").getStatus().getCommitTs());
    byte[] error = LogTaskValues.streamBackupError(1_764_644_400_000L, "KV:LogBackup:RaftReq",
        "failed to get initial snapshot: the region is not found", 1);
    // A store reports its error first; upstream reads last-error but acts only on the pause mark.
    etcd.put("/tidb/br-stream/last-error/failing/1", error);
    long checkpoint = commitTs + (1_000L << 18);
    etcd.put("/tidb/br-stream/checkpoint/failing/central_global", ByteBuffer.allocate(8).putLong(checkpoint).array());
    Backup stillRunning = h.awaitBackup("failing", "the checkpoint read after the last-error",
        b -> Long.toString(checkpoint).equals(b.getStatus().getLogCheckpointTs()));
    assertEquals("Running", stillRunning.getStatus().getPhase(), "a last-error alone changes nothing");

    // Then TiKV pauses the task, as it does on a fatal error.
    etcd.put("/tidb/br-stream/pause/failing", LogTaskValues.pause("ERROR", LogTaskValues.STREAM_BACKUP_ERROR_TYPE, error));
    Backup failed = h.awaitBackup("failing", "RetryFailed", b -> "RetryFailed".equals(b.getStatus().getPhase()));
    BackupCondition retry = condition(failed, "RetryFailed");
    assertEquals("LogBackupErrorPaused", retry.getReason());
    assertEquals("Log backup paused due to error: Paused by error(store 1): failed to get initial snapshot: the region is"
        + " not found", retry.getMessage());
    assertEquals("log-start", retry.getCommand());
    assertEquals("RetryFailed", failed.getStatus().getLogSubCommandStatuses().get("log-start").getPhase());
    assertTrue(h.admin.v1().events().inNamespace(h.namespace).list().getItems().stream()
        .anyMatch(e -> "LogBackupErrorPaused".equals(e.getReason()) && "Warning".equals(e.getType())));

    // The user resumes it with br (the pause mark is gone): Running again, the checkpoint followed again.
    etcd.delete("/tidb/br-stream/pause/failing");
    long later = checkpoint + (1_000L << 18);
    etcd.put("/tidb/br-stream/checkpoint/failing/central_global", ByteBuffer.allocate(8).putLong(later).array());
    Backup recovered = h.awaitBackup("failing", "Running again", b -> "Running".equals(b.getStatus().getPhase())
        && Long.toString(later).equals(b.getStatus().getLogCheckpointTs()));
    assertEquals("False", condition(recovered, "RetryFailed").getStatus());
    assertEquals("Complete", recovered.getStatus().getLogSubCommandStatuses().get("log-start").getPhase());
    assertEquals(1, h.admin.batch().v1().jobs().inNamespace(h.namespace).withLabel("tidb.pingcap.com/backup", "failing")
        .list().getItems().size(), "nothing but the start ran: the task was resumed by hand");
  }

  @Test
  void aCommandBrRefusesFailsThatCommandOnlyAndNothingRunsBeforeTheStart() throws Exception {
    Path ownTasks = Files.createTempDirectory("br-log-tasks-");
    h.createBackup("""
        apiVersion: pingcap.com/v1alpha1
        kind: Backup
        metadata: {name: refused}
        spec:
          backupMode: log
          logSubcommand: log-pause
          logTruncateUntil: "2026-01-01 00:00:00"
          br: {cluster: basic}
          env:
          - {name: BR_STANDIN_LOG_TASKS, value: "%s"}
          s3: {provider: minio, endpoint: "${S3}", bucket: logs, prefix: refused/log, secretName: s3-secret}
        """.formatted(ownTasks));
    Backup waiting = h.awaitBackup("refused", "observed", b -> b.getStatus().getObservedGeneration() != null);
    assertNull(waiting.getStatus().getPhase(), "nothing runs before the start");
    assertNull(h.job("backup-refused-log-pause"), "a pause waits for the start");

    edit("refused", b -> {
      b.getSpec().setLogSubcommand("log-start");
      b.getSpec().setLogTruncateUntil(null);
    });
    Job start = h.awaitJob("backup-refused-log-start");
    assertEquals(0, h.run(start).exitCode());
    Backup running = h.awaitBackup("refused", "Running", b -> "Running".equals(b.getStatus().getPhase()));
    // Someone pauses the task with br directly; the operator's pause is then refused by BR.
    Path task = ownTasks.resolve("refused.json");
    Files.writeString(task, Files.readString(task).replace("\"paused\":false", "\"paused\":true"));
    edit("refused", b -> b.getSpec().setLogSubcommand("log-pause"));
    JobAsKubelet.Run run = h.run(h.awaitJob("backup-refused-log-pause"));
    assertEquals(1, run.exitCode(), run.output());
    Backup failed = h.awaitBackup("refused", "log-pause Failed", b -> b.getStatus().getLogSubCommandStatuses() != null
        && "Failed".equals(b.getStatus().getLogSubCommandStatuses().get("log-pause").getPhase()));
    assertEquals("Running", failed.getStatus().getPhase(), "the log backup itself still runs");
    assertEquals(running.getStatus().getCommitTs(), failed.getStatus().getCommitTs());
    String message = BackupHarness.condition(failed, "Failed").orElseThrow().getMessage();
    assertTrue(message.contains("log-pause: log pause failed: br exited with code 1: [BR:KV:ErrKVUnknown]The task refused"
        + " is paused already."), message);
    assertEquals("log-pause", BackupHarness.condition(failed, "Failed").orElseThrow().getCommand());

    // The task runs while the spec asks for a pause: three kernel reads later the failure still
    // stands and the failed Job is neither deleted nor made again (nothing would run it).
    String failedJob = h.job("backup-refused-log-pause").getMetadata().getUid();
    Thread.sleep(3 * BackupHarness.CHECKPOINT_PERIOD.toMillis() + 500);
    Backup later = h.admin.resources(Backup.class).inNamespace(h.namespace).withName("refused").get();
    assertEquals("Failed", later.getStatus().getLogSubCommandStatuses().get("log-pause").getPhase());
    assertEquals(failedJob, h.job("backup-refused-log-pause").getMetadata().getUid());
  }

  private static void edit(String name, java.util.function.Consumer<Backup> change) {
    h.admin.resources(Backup.class).inNamespace(h.namespace).withName(name).edit(b -> {
      change.accept(b);
      return b;
    });
  }
}
