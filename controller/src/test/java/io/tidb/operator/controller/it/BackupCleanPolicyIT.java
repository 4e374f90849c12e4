package io.tidb.operator.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.tidb.operator.api.v1alpha1.backup.Backup;
import io.tidb.operator.testsupport.Await;
import io.tidb.operator.testsupport.ClusterAccess;
import io.tidb.operator.testsupport.WithKubeApiServer;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * cleanPolicy Delete: deleting the Backup runs the clean Job, which deletes exactly that backup's
 * objects through the AWS SDK and nothing else in the bucket; the Backup is released only after.
 * cleanPolicy Retain: the data stays and the Backup goes at once.
 */
@WithKubeApiServer
class BackupCleanPolicyIT {

  private static BackupHarness h;

  @BeforeAll
  static void start(ClusterAccess access) throws Exception {
    h = new BackupHarness(access, "backup-clean");
    h.s3.createBucket("backups");
    h.createCluster("basic");
    h.createS3Secret("s3-secret", LoopbackS3.ACCESS_KEY, LoopbackS3.SECRET_KEY);
  }

  @AfterAll
  static void stop() throws Exception {
    if (h != null) {
      h.close();
    }
  }

  private static void completeBackup(String name, String policy) throws Exception {
    h.createBackup("""
        apiVersion: pingcap.com/v1alpha1
        kind: Backup
        metadata: {name: %s}
        spec:
          cleanPolicy: %s
          br: {cluster: basic}
          s3: {provider: minio, endpoint: "${S3}", bucket: backups, prefix: "team/%s", secretName: s3-secret}
        """.formatted(name, policy, name));
    JobAsKubelet.Run run = h.run(h.awaitJob("backup-" + name));
    assertEquals(0, run.exitCode(), run.output());
    h.awaitBackup(name, "Complete", b -> "Complete".equals(b.getStatus().getPhase()));
  }

  @Test
  void deleteRemovesExactlyThatBackupsObjects() throws Exception {
    completeBackup("keep", "Retain");
    completeBackup("team", "Delete");
    List<String> before = h.s3.keys("backups");
    assertEquals(10, before.size(), before.toString());

    h.admin.resources(Backup.class).inNamespace(h.namespace).withName("team").delete();
    Job clean = h.awaitJob("clean-team");
    assertEquals(List.of("backup-manager", "clean", "--storage", "s3://backups/team/team", "--s3.endpoint=" + h.s3.endpoint),
        clean.getSpec().getTemplate().getSpec().getContainers().get(0).getArgs());
    Thread.sleep(1000);
    Backup waiting = h.backup("team");
    assertTrue(waiting != null, "the Backup stays until its data is gone");
    assertEquals("Cleaning", BackupHarness.condition(waiting, "Cleaned").orElseThrow().getReason());

    JobAsKubelet.Run run = h.kubelet.runAndReport(clean);
    assertEquals(0, run.exitCode(), run.output());
    assertTrue(run.output().contains("clean: deleted 5 objects under s3://backups/team/team, none left"), run.output());
    Await.until("Backup team released", Duration.ofSeconds(60), () -> h.backup("team"), b -> b == null);
    List<String> after = h.s3.keys("backups");
    assertEquals(5, after.size(), after.toString());
    assertTrue(after.stream().allMatch(k -> k.startsWith("team/keep/")), "the other backup is untouched: " + after);

    h.admin.resources(Backup.class).inNamespace(h.namespace).withName("keep").delete();
    Await.until("Backup keep released", Duration.ofSeconds(60), () -> h.backup("keep"), b -> b == null);
    assertEquals(after, h.s3.keys("backups"), "Retain keeps the data");
    assertEquals(null, h.job("clean-keep"));
  }
}
