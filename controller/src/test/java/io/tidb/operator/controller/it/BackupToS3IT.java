package io.tidb.operator.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.tidb.operator.api.v1alpha1.backup.Backup;
import io.tidb.operator.api.v1alpha1.backup.BackupCondition;
import io.tidb.operator.api.v1alpha1.backup.Restore;
import io.tidb.operator.testsupport.ClusterAccess;
import io.tidb.operator.testsupport.WithKubeApiServer;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A full backup to a loopback S3 server completes: the Job's container (the backup-manager, as its
 * own ServiceAccount) runs BR, the Backup ends Complete with backupPath, size and commitTs written
 * by two field managers, the objects are in S3 under the prefix; a Restore then reads the backup
 * back (checking every file) and ends Complete with the backup's commitTs.
 */
@WithKubeApiServer
class BackupToS3IT {

  private static BackupHarness h;

  @BeforeAll
  static void start(ClusterAccess access) throws Exception {
    h = new BackupHarness(access, "backup-s3");
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

  @Test
  void aFullBackupCompletesAndARestoreReadsItBack() throws Exception {
    BackupHarness.Phases phases = h.watchPhases("full");
    h.createBackup("""
        apiVersion: pingcap.com/v1alpha1
        kind: Backup
        metadata: {name: full}
        spec:
          br: {cluster: basic, concurrency: 4}
          env: [{name: BR_STANDIN_DELAY_MS, value: "3000"}]
          s3: {provider: minio, endpoint: "${S3}", bucket: backups, prefix: nightly/full, secretName: s3-secret}
        """);
    Job job = h.awaitJob("backup-full");
    List<String> args = job.getSpec().getTemplate().getSpec().getContainers().get(0).getArgs();
    assertEquals(List.of("backup-manager", "backup", "--namespace", h.namespace, "--name", "full", "--",
        h.brScript.toString(), "backup", "full", "--pd=basic-pd." + h.namespace + ":2379",
        "--storage=s3://backups/nightly/full", "--s3.endpoint=" + h.s3.endpoint, "--s3.provider=minio",
        "--concurrency=4"), args);
    assertEquals("pingcap/br:v8.5.7", job.getSpec().getTemplate().getSpec().getInitContainers().get(0).getImage());
    assertFalse(job.toString().contains(LoopbackS3.SECRET_KEY), "credentials only by secretKeyRef");
    Role role = h.admin.rbac().roles().inNamespace(h.namespace).withName("backup-full").get();
    assertEquals(2, role.getRules().size());
    role.getRules().forEach(r -> assertEquals(List.of("full"), r.getResourceNames(), "only its own Backup"));

    JobAsKubelet.Run run = h.run(job);
    assertEquals(0, run.exitCode(), run.output());
    assertTrue(run.output().contains("[\"Full Backup success summary\"]"), run.output());

    Backup done = h.awaitBackup("full", "Complete", b -> "Complete".equals(b.getStatus().getPhase()));
    assertEquals(List.of("Scheduled", "Prepare", "Running", "Complete"), phases.seenThrough("Complete"),
        "upstream's phases: the backup-manager's Prepare before BR runs (BR slow enough to be seen Running)");
    phases.close();
    BackupCondition prepare = BackupHarness.condition(done, "Prepare").orElseThrow();
    assertEquals("True", prepare.getStatus());
    assertEquals(null, prepare.getReason(), "upstream's shape: type and status only");
    assertEquals(null, prepare.getCommand());
    assertEquals(List.of("Valid", "Scheduled", "Prepare", "Running", "Complete"),
        done.getStatus().getConditions().stream().map(BackupCondition::getType).toList(),
        "the backup-manager's Prepare kept the controller's conditions, and the controller kept it");
    assertEquals("s3://backups/nightly/full", done.getStatus().getBackupPath());
    assertTrue(done.getStatus().getBackupSize() > 1024, "size " + done.getStatus().getBackupSize());
    assertTrue(done.getStatus().getBackupSizeReadable().endsWith("kB"), done.getStatus().getBackupSizeReadable());
    assertTrue(Long.parseLong(done.getStatus().getCommitTs()) > 0, done.getStatus().getCommitTs());
    assertTrue(done.getStatus().getTimeStarted() != null && done.getStatus().getTimeCompleted() != null
        && done.getStatus().getTimeTaken() != null);
    assertEquals("True", BackupHarness.condition(done, "Complete").orElseThrow().getStatus());
    assertTrue(run.output().contains("size " + done.getStatus().getBackupSizeReadable()), run.output());

    List<String> keys = h.s3.keys("backups");
    assertTrue(keys.contains("nightly/full/backupmeta"), keys.toString());
    assertTrue(keys.contains("nightly/full/backup.lock"), keys.toString());
    assertEquals(5, keys.size(), keys.toString());
    assertTrue(keys.stream().allMatch(k -> k.startsWith("nightly/full/")), keys.toString());

    ManagedFieldsEntry controller = manager(done, "tidb-operator");
    ManagedFieldsEntry manager = manager(done, "tidb-backup-manager");
    String controllerFields = controller.getFieldsV1().getAdditionalProperties().toString();
    String managerFields = manager.getFieldsV1().getAdditionalProperties().toString();
    assertTrue(controllerFields.contains("f:phase") && !controllerFields.contains("f:commitTs"), controllerFields);
    assertTrue(managerFields.contains("f:commitTs") && managerFields.contains("f:backupSize")
        && !managerFields.contains("f:phase"), managerFields);
    done.getMetadata().getManagedFields().stream()
        .filter(m -> "tidb-backup-manager".equals(m.getManager()) && "Update".equals(m.getOperation()))
        .forEach(m -> assertFalse(m.getFieldsV1().getAdditionalProperties().toString().contains("f:phase"),
            "the controller's apply took the phase back from the backup-manager's Prepare: " + m.getFieldsV1()));

    Thread.sleep(2000);
    assertEquals("Complete", h.backup("full").getStatus().getPhase(), "a complete backup stays Complete");
    assertEquals(1, h.admin.batch().v1().jobs().inNamespace(h.namespace).list().getItems().size(), "one Job");

    h.createRestore("""
        apiVersion: pingcap.com/v1alpha1
        kind: Restore
        metadata: {name: back}
        spec:
          br: {cluster: basic}
          s3: {provider: minio, endpoint: "${S3}", bucket: backups, prefix: nightly/full, secretName: s3-secret}
        """);
    Job restoreJob = h.awaitJob("restore-back");
    JobAsKubelet.Run restored = h.run(restoreJob);
    assertEquals(0, restored.exitCode(), restored.output());
    assertTrue(restored.output().contains("restore file completed"), restored.output());
    Restore r = h.awaitRestore("back", "Complete", x -> "Complete".equals(x.getStatus().getPhase()));
    assertEquals(done.getStatus().getCommitTs(), r.getStatus().getCommitTs());
  }

  private static ManagedFieldsEntry manager(Backup b, String name) {
    return b.getMetadata().getManagedFields().stream()
        .filter(m -> name.equals(m.getManager()) && "status".equals(m.getSubresource()) && "Apply".equals(m.getOperation()))
        .findFirst().orElseThrow(() -> new AssertionError("no status manager " + name + ": "
            + b.getMetadata().getManagedFields().stream().map(ManagedFieldsEntry::getManager).toList()));
  }
}
