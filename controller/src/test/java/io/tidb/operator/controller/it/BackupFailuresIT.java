package io.tidb.operator.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.tidb.operator.api.v1alpha1.backup.Backup;
import io.tidb.operator.testsupport.ClusterAccess;
import io.tidb.operator.testsupport.WithKubeApiServer;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Backups that do not complete always end Failed with the reason, and are never retried: BR
 * failing, wrong credentials (no secret in the status, Events or the Job's output), the Job's pod
 * deleted mid-run, the Job deleted.
 */
@WithKubeApiServer
class BackupFailuresIT {

  private static final String WRONG_SECRET = "wrong-secret-key-never-shown";
  private static BackupHarness h;

  @BeforeAll
  static void start(ClusterAccess access) throws Exception {
    h = new BackupHarness(access, "backup-fail");
    h.s3.createBucket("backups");
    h.createCluster("basic");
    h.createS3Secret("s3-secret", LoopbackS3.ACCESS_KEY, LoopbackS3.SECRET_KEY);
    h.createS3Secret("wrong-secret", LoopbackS3.ACCESS_KEY, WRONG_SECRET);
  }

  @AfterAll
  static void stop() throws Exception {
    if (h != null) {
      h.close();
    }
  }

  private static String backup(String name, String secret, String env) {
    return """
        apiVersion: pingcap.com/v1alpha1
        kind: Backup
        metadata: {name: %s}
        spec:
          br: {cluster: basic}
          env: %s
          s3: {provider: minio, endpoint: "${S3}", bucket: backups, prefix: %s, secretName: %s}
        """.formatted(name, env, name, secret);
  }

  @Test
  void aFailingBrEndsFailedWithItsErrorAndIsNotRetried() throws Exception {
    h.createBackup(backup("br-fails", "s3-secret",
        "[{name: BR_STANDIN_FAIL, value: \"[BR:Common:ErrUnknown]cannot connect to PD basic-pd:2379\"}]"));
    Job job = h.awaitJob("backup-br-fails");
    JobAsKubelet.Run run = h.run(job);
    assertEquals(1, run.exitCode(), run.output());
    Backup failed = h.awaitBackup("br-fails", "Failed", b -> "Failed".equals(b.getStatus().getPhase()));
    String message = BackupHarness.condition(failed, "Failed").orElseThrow().getMessage();
    assertEquals("backup failed: br exited with code 1: [BR:Common:ErrUnknown]cannot connect to PD basic-pd:2379", message);
    assertEquals("JobFailed", BackupHarness.condition(failed, "Failed").orElseThrow().getReason());
    Thread.sleep(3000);
    assertEquals("Failed", h.backup("br-fails").getStatus().getPhase(), "stays Failed");
    assertEquals(job.getMetadata().getUid(), h.job("backup-br-fails").getMetadata().getUid(), "no second Job");
    List<Event> events = events("br-fails");
    assertEquals(1, events.stream().filter(e -> "BackupFailed".equals(e.getReason())).count(), events.toString());
  }

  @Test
  void wrongCredentialsEndFailedWithAClearReasonAndNoSecretAnywhere() throws Exception {
    h.createBackup(backup("wrong-creds", "wrong-secret", "[]"));
    Job job = h.awaitJob("backup-wrong-creds");
    JobAsKubelet.Run run = h.run(job);
    assertEquals(1, run.exitCode(), run.output());
    Backup failed = h.awaitBackup("wrong-creds", "Failed", b -> "Failed".equals(b.getStatus().getPhase()));
    String message = BackupHarness.condition(failed, "Failed").orElseThrow().getMessage();
    assertTrue(message.startsWith("backup failed: br exited with code 1: ") && message.contains("Status Code: 403"), message);
    assertFalse(run.output().contains(WRONG_SECRET), "not in the Job's output");
    assertFalse(h.admin.resource(failed).get().toString().contains(WRONG_SECRET), "not in the status");
    assertFalse(events("wrong-creds").toString().contains(WRONG_SECRET), "not in Events");
    assertFalse(h.job("backup-wrong-creds").toString().contains(WRONG_SECRET), "not in the Job");
    assertTrue(h.s3.keys("backups").stream().noneMatch(k -> k.startsWith("wrong-creds/")), "nothing written");
  }

  @Test
  void aPodDeletedMidRunEndsFailed() throws Exception {
    h.createBackup(backup("pod-deleted", "s3-secret", "[{name: BR_STANDIN_HANG, value: \"true\"}]"));
    Job job = h.awaitJob("backup-pod-deleted");
    Instant started = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    Process p = h.start(job);
    h.awaitBackup("pod-deleted", "Running", b -> "Running".equals(b.getStatus().getPhase()));
    // As a deleted pod's container goes: every process in it, the BR the manager started too
    // (which, told to hang, would otherwise sleep on after the test).
    List<ProcessHandle> br = p.descendants().toList();
    br.forEach(ProcessHandle::destroyForcibly);
    p.destroyForcibly();
    assertTrue(p.waitFor(30, TimeUnit.SECONDS));
    for (ProcessHandle child : br) {
      child.onExit().get(30, TimeUnit.SECONDS);
    }
    h.kubelet.reportPodDeleted(job, started);
    Backup failed = h.awaitBackup("pod-deleted", "Failed", b -> "Failed".equals(b.getStatus().getPhase()));
    assertEquals("Job backup-pod-deleted failed: BackoffLimitExceeded (Job has reached the specified backoff limit)",
        BackupHarness.condition(failed, "Failed").orElseThrow().getMessage());
    assertTrue(failed.getStatus().getTimeStarted() != null, "the backup-manager's start time is kept");
  }

  @Test
  void aDeletedJobEndsFailedAndIsNotRecreated() throws Exception {
    h.createBackup(backup("job-deleted", "s3-secret", "[]"));
    h.awaitJob("backup-job-deleted");
    h.awaitBackup("job-deleted", "Scheduled", b -> "Scheduled".equals(b.getStatus().getPhase()));
    h.admin.batch().v1().jobs().inNamespace(h.namespace).withName("backup-job-deleted").delete();
    Backup failed = h.awaitBackup("job-deleted", "Failed", b -> "Failed".equals(b.getStatus().getPhase()));
    assertEquals("JobDeleted", BackupHarness.condition(failed, "Failed").orElseThrow().getReason());
    Thread.sleep(3000);
    assertEquals(null, h.job("backup-job-deleted"), "never recreated");
  }

  private static List<Event> events(String name) {
    return h.admin.v1().events().inNamespace(h.namespace).list().getItems().stream()
        .filter(e -> name.equals(e.getInvolvedObject().getName())).toList();
  }
}
