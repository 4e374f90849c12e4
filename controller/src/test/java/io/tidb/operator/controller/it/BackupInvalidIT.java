package io.tidb.operator.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tidb.operator.api.v1alpha1.backup.Backup;
import io.tidb.operator.api.v1alpha1.backup.BackupCondition;
import io.tidb.operator.api.v1alpha1.backup.Restore;
import io.tidb.operator.testsupport.ClusterAccess;
import io.tidb.operator.testsupport.WithKubeApiServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A Backup and a Restore the webhook would have refused, stored anyway (no webhook here): the
 * controller runs the same rules, shows upstream's phase {@code Invalid} with {@code Valid=False}
 * naming the field, creates no Job, and runs the backup once the spec is fixed.
 */
@WithKubeApiServer
class BackupInvalidIT {

  private static BackupHarness h;

  @BeforeAll
  static void start(ClusterAccess access) throws Exception {
    h = new BackupHarness(access, "backup-invalid");
    h.createCluster("basic");
  }

  @AfterAll
  static void stop() throws Exception {
    if (h != null) {
      h.close();
    }
  }

  @Test
  void anInvalidBackupIsInvalidAndRunsOnceFixed() {
    h.createBackup("""
        apiVersion: pingcap.com/v1alpha1
        kind: Backup
        metadata: {name: ebs}
        spec:
          backupMode: volume-snapshot
          br: {cluster: basic}
          s3: {provider: minio, endpoint: "${S3}", bucket: backups, prefix: ebs}
        """);
    Backup invalid = h.awaitBackup("ebs", "Invalid", b -> "Invalid".equals(b.getStatus().getPhase()));
    BackupCondition valid = BackupHarness.condition(invalid, "Valid").orElseThrow();
    assertEquals("False", valid.getStatus());
    assertTrue(valid.getMessage().contains("spec.backupMode") && valid.getMessage().contains("volume-snapshot"),
        valid.getMessage());
    assertNull(h.job("backup-ebs"), "no Job for an invalid Backup");

    h.admin.resources(Backup.class).inNamespace(h.namespace).withName("ebs").edit(b -> {
      b.getSpec().setBackupMode("snapshot");
      return b;
    });
    h.awaitJob("backup-ebs");
    h.awaitBackup("ebs", "Scheduled once fixed", b -> "Scheduled".equals(b.getStatus().getPhase()));
  }

  @Test
  void anInvalidRestoreIsInvalid() {
    h.createRestore("""
        apiVersion: pingcap.com/v1alpha1
        kind: Restore
        metadata: {name: pitr-without-start}
        spec:
          restoreMode: pitr
          br: {cluster: basic}
          s3: {provider: minio, endpoint: "${S3}", bucket: backups, prefix: log}
        """);
    Restore invalid = h.awaitRestore("pitr-without-start", "Invalid", r -> "Invalid".equals(r.getStatus().getPhase()));
    String message = invalid.getStatus().getConditions().stream().filter(c -> "Valid".equals(c.getType()))
        .findFirst().orElseThrow().getMessage();
    assertTrue(message.contains("spec.pitrFullBackupStorageProvider"), message);
    assertNull(h.job("restore-pitr-without-start"));
  }
}
