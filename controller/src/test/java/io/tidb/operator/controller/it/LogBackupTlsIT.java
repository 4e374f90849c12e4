package io.tidb.operator.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.tidb.operator.api.v1alpha1.backup.Backup;
import io.tidb.operator.controller.fixtures.TestCertificates;
import io.tidb.operator.testsupport.Await;
import io.tidb.operator.testsupport.ClusterAccess;
import io.tidb.operator.testsupport.WithKubeApiServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Against a TLS cluster every BR command, a log backup's, a snapshot backup's and a restore's,
 * gets the cluster's client certificate, and deleting a running log backup stops it first. These
 * scenarios share this class: their Jobs write the one mount path of the client certificate on
 * this machine.
 */
@WithKubeApiServer
class LogBackupTlsIT {

  private static BackupHarness h;

  @BeforeAll
  static void start(ClusterAccess access) throws Exception {
    h = new BackupHarness(access, "log-backup-tls");
    h.s3.createBucket("logs");
    h.createCluster("secure", true);
    TestCertificates ca = TestCertificates.newCa("backup-tls-it-ca");
    h.admin.resource(ca.secret(h.namespace, "secure-cluster-client-secret", ca.peer(List.of("secure-client")))).create();
    h.createS3Secret("s3-secret", LoopbackS3.ACCESS_KEY, LoopbackS3.SECRET_KEY);
  }

  @AfterAll
  static void stop() throws Exception {
    if (h != null) {
      h.close();
    }
  }

  /**
   * Against a TLS cluster every BR command gets the cluster's client certificate (the stand-in,
   * told the cluster has TLS, refuses a command without it); deleting the running log backup runs
   * {@code br log stop} in Job {@code stop-<name>} before the Backup is released.
   */
  @Test
  void aTlsClustersLogBackupGetsTheClientCertificateAndIsStoppedWhenDeleted() throws Exception {
    Path ownTasks = Files.createTempDirectory("br-log-tasks-");
    h.createBackup("""
        apiVersion: pingcap.com/v1alpha1
        kind: Backup
        metadata: {name: secured}
        spec:
          backupMode: log
          br: {cluster: secure}
          env:
          - {name: BR_STANDIN_LOG_TASKS, value: "%s"}
          - {name: BR_STANDIN_CLUSTER_TLS, value: "true"}
          s3: {provider: minio, endpoint: "${S3}", bucket: logs, prefix: secured/log, secretName: s3-secret}
        """.formatted(ownTasks));
    Job start = h.awaitJob("backup-secured-log-start");
    List<String> args = start.getSpec().getTemplate().getSpec().getContainers().get(0).getArgs();
    assertTrue(args.contains("--cluster-tls"), args.toString());

    Job withoutTls = new io.fabric8.kubernetes.api.model.batch.v1.JobBuilder(start).build();
    withoutTls.getSpec().getTemplate().getSpec().getContainers().get(0)
        .setArgs(args.stream().filter(a -> !"--cluster-tls".equals(a)).toList());
    JobAsKubelet.Run refused = h.kubelet.run(withoutTls, h.kubeletFor(withoutTls));
    assertEquals(1, refused.exitCode(), refused.output());
    assertTrue(refused.output().contains("the cluster has TLS but --ca, --cert and --key were not all given"),
        refused.output());

    JobAsKubelet.Run run = h.run(start);
    assertEquals(0, run.exitCode(), run.output());
    assertTrue(run.output().contains("[\"cluster TLS\"]") && run.output().contains("[ca=/var/lib/cluster-client-tls/ca.crt]"),
        run.output());
    h.awaitBackup("secured", "Running", b -> "Running".equals(b.getStatus().getPhase()));

    h.admin.resources(Backup.class).inNamespace(h.namespace).withName("secured").delete();
    Job stop = h.awaitJob("stop-secured");
    assertTrue(stop.getSpec().getTemplate().getSpec().getContainers().get(0).getArgs()
        .containsAll(List.of("--cluster-tls", "log", "stop", "--task-name=secured")), stop.getSpec().toString());
    Backup stopping = h.awaitBackup("secured", "stopping", b -> b.getStatus().getLogSubCommandStatuses() != null
        && b.getStatus().getLogSubCommandStatuses().containsKey("log-stop"));
    assertEquals("Scheduled", stopping.getStatus().getLogSubCommandStatuses().get("log-stop").getPhase());
    var scheduled = BackupHarness.condition(stopping, "Scheduled").orElseThrow();
    assertEquals("log-stop", scheduled.getCommand());
    assertTrue(scheduled.getMessage().contains("Job stop-secured runs br log stop of task secured"), scheduled.getMessage());
    assertTrue(Files.exists(ownTasks.resolve("secured.json")), "the task runs until the stop");

    JobAsKubelet.Run stopped = h.run(stop);
    assertEquals(0, stopped.exitCode(), stopped.output());
    Await.until("the Backup released", BackupHarness.TIMEOUT, () -> h.backup("secured"), b -> b == null);
    assertTrue(!Files.exists(ownTasks.resolve("secured.json")), "br log stop removed the task");
  }

  @Test
  void aTlsClustersSnapshotBackupAndRestoreGetTheClientCertificate() throws Exception {
    h.createBackup("""
        apiVersion: pingcap.com/v1alpha1
        kind: Backup
        metadata: {name: secured-full}
        spec:
          br: {cluster: secure}
          env: [{name: BR_STANDIN_CLUSTER_TLS, value: "true"}]
          s3: {provider: minio, endpoint: "${S3}", bucket: logs, prefix: secured/full, secretName: s3-secret}
        """);
    Job backup = h.awaitJob("backup-secured-full");
    assertTrue(backup.getSpec().getTemplate().getSpec().getContainers().get(0).getArgs().contains("--cluster-tls"));
    JobAsKubelet.Run backedUp = h.run(backup);
    assertEquals(0, backedUp.exitCode(), backedUp.output());
    assertTrue(backedUp.output().contains("--key=<redacted>") && backedUp.output().contains("[\"cluster TLS\"]"),
        backedUp.output());
    Backup done = h.awaitBackup("secured-full", "Complete", b -> "Complete".equals(b.getStatus().getPhase()));

    h.createRestore("""
        apiVersion: pingcap.com/v1alpha1
        kind: Restore
        metadata: {name: secured-back}
        spec:
          br: {cluster: secure}
          env: [{name: BR_STANDIN_CLUSTER_TLS, value: "true"}]
          s3: {provider: minio, endpoint: "${S3}", bucket: logs, prefix: secured/full, secretName: s3-secret}
        """);
    Job restore = h.awaitJob("restore-secured-back");
    assertEquals("secure-cluster-client-secret", restore.getSpec().getTemplate().getSpec().getVolumes().stream()
        .filter(v -> "cluster-client-tls".equals(v.getName())).findFirst().orElseThrow().getSecret().getSecretName());
    JobAsKubelet.Run restored = h.run(restore);
    assertEquals(0, restored.exitCode(), restored.output());
    assertTrue(restored.output().contains("[\"cluster TLS\"]"), restored.output());
    assertEquals(done.getStatus().getCommitTs(), h.awaitRestore("secured-back", "Complete",
        r -> "Complete".equals(r.getStatus().getPhase())).getStatus().getCommitTs());
  }
}
