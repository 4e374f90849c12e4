package io.tidb.operator.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.tidb.operator.api.v1alpha1.backup.Backup;
import io.tidb.operator.pd.PdClientOptions;
import io.tidb.operator.pd.PdEtcdClient;
import io.tidb.operator.pdsim.ClusterKey;
import io.tidb.operator.testsupport.Await;
import io.tidb.operator.testsupport.ClusterAccess;
import io.tidb.operator.testsupport.WithKubeApiServer;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.time.Duration;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A log backup's life on a real API server, each command's Job run as a process with exactly its
 * container's command, arguments and environment: start (Running, commitTs from BR's task line,
 * the lock and meta in S3), pause (Paused), start again (a resume), truncation (the safepoint in
 * S3, logSuccessTruncateUntil), stop (Stopped), each command first Prepare (the backup-manager's),
 * the pause's mark BR (the stand-in) writes in PD's etcd agreeing with the phase; while Running,
 * the checkpoint the test writes into PD's etcd as the cluster's advancer would
 * becomes logCheckpointTs and follows it; the BR stand-in records the five command lines. The TLS
 * cluster's scenarios are {@link LogBackupTlsIT}'s, a task changed outside the operator {@link
 * LogBackupKernelIT}'s (separate classes, so that they run side by side).
 */
@WithKubeApiServer
class LogBackupIT {

  private static BackupHarness h;
  private static Path tasks;
  private static Path record;

  @BeforeAll
  static void start(ClusterAccess access) throws Exception {
    h = new BackupHarness(access, "log-backup");
    h.s3.createBucket("logs");
    h.createCluster("basic");
    h.pd.clusters().pd(new ClusterKey(h.namespace, "basic")).addMember("basic-pd-0", 1L);
    h.createS3Secret("s3-secret", LoopbackS3.ACCESS_KEY, LoopbackS3.SECRET_KEY);
    tasks = Files.createTempDirectory("br-log-tasks-");
    record = Files.createTempFile("br-commands-", ".txt");
  }

  @AfterAll
  static void stop() throws Exception {
    if (h != null) {
      h.close();
    }
  }

  private static void edit(Consumer<Backup> change) {
    edit("pitr", change);
  }

  private static void edit(String name, Consumer<Backup> change) {
    h.admin.resources(Backup.class).inNamespace(h.namespace).withName(name).edit(b -> {
      change.accept(b);
      return b;
    });
  }

  private static String safepoint(String prefix) {
    try (var s3 = h.s3.client()) {
      return s3.getObjectAsBytes(b -> b.bucket("logs").key(prefix + "v1_stream_trancate_safepoint.txt")).asUtf8String().trim();
    }
  }

  /** Runs the command's Job as its pod would and returns its output. */
  private static String runJob(String command) throws Exception {
    Job job = h.awaitJob("backup-pitr-" + command);
    JobAsKubelet.Run run = h.run(job);
    assertEquals(0, run.exitCode(), run.output());
    return run.output();
  }

  @Test
  void startPauseResumeTruncateStop() throws Exception {
    BackupHarness.Phases phases = h.watchPhases("pitr");
    h.createBackup("""
        apiVersion: pingcap.com/v1alpha1
        kind: Backup
        metadata: {name: pitr}
        spec:
          backupMode: log
          br: {cluster: basic}
          env:
          - {name: BR_STANDIN_LOG_TASKS, value: "%s"}
          - {name: BR_STANDIN_RECORD, value: "%s"}
          - {name: BR_STANDIN_PD_ETCD, value: "%s"}
          s3: {provider: minio, endpoint: "${S3}", bucket: logs, prefix: pitr/log, secretName: s3-secret}
        """.formatted(tasks, record, h.pd.pdUrl(new ClusterKey(h.namespace, "basic"))));
    Job startJob = h.awaitJob("backup-pitr-log-start");
    List<String> args = startJob.getSpec().getTemplate().getSpec().getContainers().get(0).getArgs();
    assertEquals(List.of("backup-manager", "backup", "--namespace", h.namespace, "--name", "pitr", "--",
        h.brScript.toString(), "log", "start", "--task-name=pitr", "--pd=basic-pd." + h.namespace + ":2379",
        "--storage=s3://logs/pitr/log", "--s3.endpoint=" + h.s3.endpoint,
        "--s3.provider=minio"), args);
    h.awaitBackup("pitr", "Scheduled", b -> "Scheduled".equals(b.getStatus().getPhase()));

    String out = runJob("log-start");
    assertTrue(out.contains("[\"log start success summary\"]"), out);
    Backup running = h.awaitBackup("pitr", "Running", b -> "Running".equals(b.getStatus().getPhase()));
    assertEquals(List.of("Scheduled", "Prepare", "Running"), phases.seenThrough("Running"), "the start's phases, upstream's");
    phases.close();
    String commitTs = running.getStatus().getCommitTs();
    assertTrue(Long.parseLong(commitTs) > 0, commitTs);
    assertEquals("Complete", running.getStatus().getLogSubCommandStatuses().get("log-start").getPhase());
    assertEquals("log-start", BackupHarness.condition(running, "Running").orElseThrow().getCommand());
    assertTrue(h.s3.keys("logs").contains("pitr/log/backup.lock"), h.s3.keys("logs").toString());
    assertTrue(h.s3.keys("logs").contains("pitr/log/v1/backupmeta/" + commitTs + ".meta"), h.s3.keys("logs").toString());
    var prepare = BackupHarness.condition(running, "Prepare").orElseThrow();
    assertEquals("True", prepare.getStatus());
    assertEquals("log-start", prepare.getCommand(), "upstream's Prepare, written by the backup-manager when it began");
    assertEquals("Prepare", running.getStatus().getLogSubCommandStatuses().get("log-start").getConditions().get(0).getType());

    // The cluster's log-backup advancer keeps the checkpoint in PD's etcd, an 8-byte big-endian TSO;
    // the test plays it, writing through etcd's gateway on PD's client port.
    PdEtcdClient etcd = new PdEtcdClient(h.pd.pdUrl(new ClusterKey(h.namespace, "basic")),
        PdClientOptions.defaults().newHttpClient(), Duration.ofSeconds(5));
    String checkpointKey = "/tidb/br-stream/checkpoint/pitr/central_global";
    long first = Long.parseLong(commitTs) + (5_000L << 18);
    etcd.put(checkpointKey, ByteBuffer.allocate(8).putLong(first).array());
    Backup synced = h.awaitBackup("pitr", "logCheckpointTs", b -> Long.toString(first).equals(b.getStatus().getLogCheckpointTs()));
    assertTrue(synced.getStatus().getTimeSynced() != null, "timeSynced: when the checkpoint was read");
    long later = first + (10_000L << 18);
    etcd.put(checkpointKey, ByteBuffer.allocate(8).putLong(later).array());
    h.awaitBackup("pitr", "logCheckpointTs advanced", b -> Long.toString(later).equals(b.getStatus().getLogCheckpointTs()));

    edit(b -> b.getSpec().setLogSubcommand("log-pause"));
    runJob("log-pause");
    Backup paused = h.awaitBackup("pitr", "Paused", b -> "Paused".equals(b.getStatus().getPhase()));
    assertEquals(List.of("/tidb/br-stream/pause/pitr"), List.copyOf(etcd.rangeBytes("/tidb/br-stream/pause/pitr").keySet()),
        "BR's pause mark, which the operator reads as the task's state");
    assertEquals(commitTs, paused.getStatus().getCommitTs(), "the backup-manager's later applies keep commitTs");
    var pausePrepare = paused.getStatus().getLogSubCommandStatuses().get("log-pause").getConditions().get(0);
    assertEquals("Prepare", pausePrepare.getType());
    assertEquals("log-pause", pausePrepare.getCommand());
    assertEquals("log-start", BackupHarness.condition(paused, "Prepare").orElseThrow().getCommand(),
        "the log backup's own Prepare stays the start's: a pause prepares only its own entry");

    edit(b -> b.getSpec().setLogSubcommand("log-start"));
    runJob("log-resume");
    h.awaitBackup("pitr", "Running again", b -> "Running".equals(b.getStatus().getPhase())
        && b.getStatus().getLogSubCommandStatuses().containsKey("log-resume")
        && "Complete".equals(b.getStatus().getLogSubCommandStatuses().get("log-resume").getPhase()));

    long until = Long.parseLong(commitTs) + (60_000L << 18);
    edit(b -> b.getSpec().setLogTruncateUntil(Long.toString(until)));
    Job truncate = h.awaitJob("backup-pitr-log-truncate");
    assertTrue(truncate.getSpec().getTemplate().getSpec().getContainers().get(0).getArgs()
        .contains("--until=" + until), truncate.getSpec().toString());
    runJob("log-truncate");
    Backup truncated = h.awaitBackup("pitr", "truncated", b -> Long.toString(until).equals(b.getStatus().getLogSuccessTruncateUntil()));
    assertEquals("Running", truncated.getStatus().getPhase(), "a truncation leaves the phase");
    assertEquals(Long.toString(until), safepoint("pitr/log/"));

    edit(b -> b.getSpec().setLogSubcommand("log-stop"));
    runJob("log-stop");
    Backup stopped = h.awaitBackup("pitr", "Stopped", b -> "Stopped".equals(b.getStatus().getPhase()));
    assertEquals(commitTs, stopped.getStatus().getCommitTs());
    try (var files = Files.list(tasks)) {
      assertEquals(0, files.count(), "the stand-in's task is gone");
    }
    List<String> lines = Files.readAllLines(record);
    assertEquals(List.of("log start", "log pause", "log resume", "log truncate", "log stop"),
        lines.stream().map(l -> l.split(" ")[1] + " " + l.split(" ")[2]).toList(), lines.toString());
    Await.until("no further Job", BackupHarness.TIMEOUT, () -> h.backup("pitr"),
        b -> b.getStatus().getObservedGeneration() != null
            && b.getStatus().getObservedGeneration().equals(b.getMetadata().getGeneration()));
    assertEquals(5, h.admin.batch().v1().jobs().inNamespace(h.namespace).withLabel("tidb.pingcap.com/backup", "pitr")
        .list().getItems().size(), "one Job per command, none run twice");
  }
}
