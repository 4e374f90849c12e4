package io.tidb.operator.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.tidb.operator.api.v1alpha1.backup.Restore;
import io.tidb.operator.testsupport.ClusterAccess;
import io.tidb.operator.testsupport.WithKubeApiServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A point-in-time restore ({@code restoreMode: pitr}) from a log backup and the full backup it
 * starts from, every Job run as a process with exactly its container's command, arguments and
 * environment: the log backup starts, a full backup completes after it, the restore to a point
 * after the full backup runs {@code br restore point} with both storages, and the BR stand-in
 * reads both (every file of the full backup checked) and ends Complete with commitTs the point; a
 * point before the full backup is refused by BR and the Restore ends Failed with BR's reason.
 */
@WithKubeApiServer
class PitrRestoreIT {

  private static BackupHarness h;
  private static String fullTs;

  @BeforeAll
  static void start(ClusterAccess access) throws Exception {
    h = new BackupHarness(access, "pitr-restore");
    h.s3.createBucket("backups");
    h.createCluster("basic");
    h.createS3Secret("s3-secret", LoopbackS3.ACCESS_KEY, LoopbackS3.SECRET_KEY);
    Path tasks = Files.createTempDirectory("br-log-tasks-");
    h.createBackup("""
        apiVersion: pingcap.com/v1alpha1
        kind: Backup
        metadata: {name: log}
        spec:
          backupMode: log
          br: {cluster: basic}
          env: [{name: BR_STANDIN_LOG_TASKS, value: "%s"}]
          s3: {provider: minio, endpoint: "${S3}", bucket: backups, prefix: pitr/log, secretName: s3-secret}
        """.formatted(tasks));
    assertEquals(0, h.run(h.awaitJob("backup-log-log-start")).exitCode());
    h.awaitBackup("log", "Running", b -> "Running".equals(b.getStatus().getPhase()));
    h.createBackup("""
        apiVersion: pingcap.com/v1alpha1
        kind: Backup
        metadata: {name: full}
        spec:
          br: {cluster: basic}
          s3: {provider: minio, endpoint: "${S3}", bucket: backups, prefix: pitr/full, secretName: s3-secret}
        """);
    assertEquals(0, h.run(h.awaitJob("backup-full")).exitCode());
    fullTs = h.awaitBackup("full", "Complete", b -> "Complete".equals(b.getStatus().getPhase())).getStatus().getCommitTs();
  }

  @AfterAll
  static void stop() throws Exception {
    if (h != null) {
      h.close();
    }
  }

  private static void restore(String name, String restoredTs) {
    h.createRestore("""
        apiVersion: pingcap.com/v1alpha1
        kind: Restore
        metadata: {name: %s}
        spec:
          restoreMode: pitr
          pitrRestoredTs: "%s"
          br: {cluster: basic}
          s3: {provider: minio, endpoint: "${S3}", bucket: backups, prefix: pitr/log, secretName: s3-secret}
          pitrFullBackupStorageProvider:
            s3: {provider: minio, endpoint: "${S3}", bucket: backups, prefix: pitr/full, secretName: s3-secret}
        """.formatted(name, restoredTs));
  }

  @Test
  void aRestoreToAPointAfterTheFullBackupReadsBothAndCompletes() throws Exception {
    String point = Long.toString(Long.parseLong(fullTs) + 1);
    restore("to-point", point);
    Job job = h.awaitJob("restore-to-point");
    List<String> args = job.getSpec().getTemplate().getSpec().getContainers().get(0).getArgs();
    assertEquals(List.of("backup-manager", "restore", "--namespace", h.namespace, "--name", "to-point", "--",
        h.brScript.toString(), "restore", "point", "--pd=basic-pd." + h.namespace + ":2379",
        "--storage=s3://backups/pitr/log", "--s3.endpoint=" + h.s3.endpoint, "--s3.provider=minio",
        "--restored-ts=" + point, "--full-backup-storage=s3://backups/pitr/full"), args);
    JobAsKubelet.Run run = h.run(job);
    assertEquals(0, run.exitCode(), run.output());
    assertTrue(run.output().contains("restore file completed"), "the full backup's files are read: " + run.output());
    assertTrue(run.output().contains("[restore-from=" + fullTs + "]"), run.output());
    Restore done = h.awaitRestore("to-point", "Complete", r -> "Complete".equals(r.getStatus().getPhase()));
    assertEquals(point, done.getStatus().getCommitTs(), "the point restored to");
  }

  @Test
  void aPointBeforeTheFullBackupIsRefusedByBrAndTheRestoreFails() throws Exception {
    String early = Long.toString(Long.parseLong(fullTs) - 1);
    restore("too-early", early);
    JobAsKubelet.Run run = h.run(h.awaitJob("restore-too-early"));
    assertEquals(1, run.exitCode(), run.output());
    Restore failed = h.awaitRestore("too-early", "Failed", r -> "Failed".equals(r.getStatus().getPhase()));
    String message = failed.getStatus().getConditions().stream().filter(c -> "Failed".equals(c.getType()))
        .findFirst().orElseThrow().getMessage();
    assertTrue(message.contains("[BR:Restore:ErrRestoreInvalidRange]restored-ts " + early
        + " is before the restore's start " + fullTs), message);
  }
}
