package io.tidb.operator.api.validation.backup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.v1alpha1.backup.Backup;
import io.tidb.operator.api.v1alpha1.backup.BackupSchedule;
import io.tidb.operator.api.v1alpha1.backup.Restore;
import io.tidb.operator.api.validation.Violation;
import java.util.List;
import org.junit.jupiter.api.Test;

class BackupValidatorTest {

  private static final String GOOD = """
      apiVersion: pingcap.com/v1alpha1
      kind: Backup
      metadata: {name: b, namespace: ns}
      spec:
        br: {cluster: basic}
        s3: {provider: aws, bucket: bk, prefix: p, endpoint: "http://127.0.0.1:9000"}
      """;

  private static List<String> fields(String yaml) {
    return new BackupAdmissionRules().validateCreate(ApiObjects.parse(yaml, Backup.class)).stream()
        .map(Violation::field).toList();
  }

  @Test
  void aGoodBackupPasses() {
    assertEquals(List.of(), fields(GOOD));
  }

  @Test
  void everyViolationIsListedAtOnce() {
    List<String> f = fields("""
        apiVersion: pingcap.com/v1alpha1
        kind: Backup
        metadata: {name: b, namespace: ns}
        spec:
          backupType: table
          cleanPolicy: Sometimes
          tikvGCLifeTime: forever
          br: {cluster: "", concurrency: 0}
          s3: {provider: aws, bucket: "", prefix: "/", endpoint: "127.0.0.1:9000"}
          gcs: {projectId: p, bucket: g}
        """);
    assertEquals(List.of("spec.br.cluster", "spec.br.db", "spec.br.table", "spec.br.concurrency", "spec.gcs",
        "spec.s3.bucket", "spec.s3.prefix", "spec.s3.endpoint", "spec.cleanPolicy", "spec.tikvGCLifeTime"), f);
  }

  @Test
  void noStorageProviderIsRequired() {
    Backup b = ApiObjects.parse(GOOD, Backup.class);
    b.getSpec().setS3(null);
    List<Violation> v = BackupValidator.validate(b);
    assertEquals(1, v.size());
    assertTrue(v.get(0).message().contains("exactly one storage provider"), v.get(0).message());
  }

  @Test
  void localStorageNeedsMatchingNames() {
    assertEquals(List.of("spec.local.volumeMount.name", "spec.local.volumeMount.mountPath"), fields("""
        apiVersion: pingcap.com/v1alpha1
        kind: Backup
        metadata: {name: b, namespace: ns}
        spec:
          br: {cluster: basic}
          local:
            volume: {name: nfs, nfs: {server: 127.0.0.1, path: /nfs}}
            volumeMount: {name: other, mountPath: "/a:b"}
        """));
  }

  @Test
  void logBackupFieldsAreCheckedAndOnlyForLogMode() {
    Backup b = ApiObjects.parse(GOOD, Backup.class);
    b.getSpec().setLogSubcommand("log-start");
    assertEquals(List.of("spec.logSubcommand"), BackupValidator.validate(b).stream().map(Violation::field).toList());
    b.getSpec().setBackupMode("log");
    b.getSpec().setCommitTs("yesterday");
    b.getSpec().setLogSubcommand("log-resume");
    b.getSpec().setLogTruncateUntil("2024-01-02 03:04:05");
    assertEquals(List.of("spec.commitTs", "spec.logSubcommand"),
        BackupValidator.validate(b).stream().map(Violation::field).toList());
    b.getSpec().setCommitTs("446543216512835585");
    b.getSpec().setLogSubcommand("log-pause");
    assertEquals(List.of(), BackupValidator.validate(b), "a log backup is accepted");
    b.getSpec().setLogSubcommand(null);
    b.getSpec().setLogStop(true);
    assertEquals(List.of(), BackupValidator.validate(b), "upstream's older logStop");
    b.getSpec().setBackupMode("volume-snapshot");
    List<Violation> v = BackupValidator.validate(b);
    assertTrue(v.stream().anyMatch(x -> x.field().equals("spec.backupMode")
        && x.message().contains("volume-snapshot backups (EBS/GCE disk snapshots) are not supported")), v.toString());
  }

  @Test
  void everyCleanPolicyIsAcceptedOnEveryStorage() {
    Backup b = ApiObjects.parse(GOOD, Backup.class);
    for (String policy : List.of("Retain", "OnFailure", "Delete")) {
      b.getSpec().setCleanPolicy(policy);
      b.getSpec().setS3(null);
      b.getSpec().setAzblob(null);
      b.getSpec().setGcs(ApiObjects.parse("projectId: p\nbucket: g\n", io.tidb.operator.api.v1alpha1.backup.GcsStorageProvider.class));
      assertEquals(List.of(), BackupValidator.validate(b), policy + " on gcs");
      b.getSpec().setGcs(null);
      b.getSpec().setAzblob(ApiObjects.parse("container: c\n", io.tidb.operator.api.v1alpha1.backup.AzblobStorageProvider.class));
      assertEquals(List.of(), BackupValidator.validate(b), policy + " on azblob");
    }
    b.getSpec().setCleanPolicy("Sometimes");
    assertEquals(List.of("spec.cleanPolicy"), BackupValidator.validate(b).stream().map(Violation::field).toList());
  }

  @Test
  void defaultsAreUpstreamsCrdDefaults() {
    Backup d = new BackupAdmissionRules().withDefaults(ApiObjects.parse(GOOD, Backup.class));
    assertEquals("snapshot", d.getSpec().getBackupMode());
    assertEquals("Retain", d.getSpec().getCleanPolicy());
  }

  @Test
  void scheduleNeedsAValidCronAndRetention() {
    BackupSchedule s = ApiObjects.parse("""
        apiVersion: pingcap.com/v1alpha1
        kind: BackupSchedule
        metadata: {name: s, namespace: ns}
        spec:
          schedule: "*/61 * * *"
          maxBackups: 0
          maxReservedTime: 3 days
          logBackupTemplate: {br: {cluster: basic}}
          br: {cluster: basic}
          s3: {provider: aws, bucket: bk}
          backupTemplate: {backupType: full}
        """, BackupSchedule.class);
    List<Violation> v = new BackupScheduleAdmissionRules().validateCreate(s);
    assertEquals(List.of("spec.schedule", "spec.maxBackups", "spec.maxReservedTime", "spec.logBackupTemplate.backupMode"),
        v.stream().map(Violation::field).toList(), v::toString);
    assertEquals(true, v.get(3).message().contains("must be a log backup"), v.get(3).message());
    s.getSpec().setSchedule("0 */2 * * *");
    s.getSpec().setMaxBackups(3);
    s.getSpec().setMaxReservedTime("72h");
    s.getSpec().getLogBackupTemplate().setBackupMode("log");
    assertEquals(List.of(), new BackupScheduleAdmissionRules().validateCreate(s), "schedule-level br and s3 fill the templates");
  }

  @Test
  void scheduleLogBackupTemplateIsCheckedAsALogBackupAndCompactionStaysRefused() {
    BackupSchedule s = ApiObjects.parse("""
        apiVersion: pingcap.com/v1alpha1
        kind: BackupSchedule
        metadata: {name: s, namespace: ns}
        spec:
          schedule: "0 * * * *"
          maxReservedTime: 72h
          compactInterval: 1h
          backupTemplate:
            backupMode: log
            br: {cluster: basic}
            s3: {provider: aws, bucket: full}
          logBackupTemplate:
            backupMode: log
            logSubcommand: log-resume
            logTruncateUntil: yesterday
            s3: {provider: aws}
        """, BackupSchedule.class);
    List<Violation> v = new BackupScheduleAdmissionRules().validateCreate(s);
    assertEquals(List.of("spec.compactInterval", "spec.backupTemplate.backupMode", "spec.logBackupTemplate.br",
        "spec.logBackupTemplate.s3.bucket", "spec.logBackupTemplate.logTruncateUntil",
        "spec.logBackupTemplate.logSubcommand"), v.stream().map(Violation::field).toList(), v::toString);
    assertEquals(true, v.get(1).message().contains("its log backup comes from spec.logBackupTemplate"), v.get(1).message());

    BackupSchedule good = ApiObjects.parse("""
        apiVersion: pingcap.com/v1alpha1
        kind: BackupSchedule
        metadata: {name: s, namespace: ns}
        spec:
          schedule: "0 * * * *"
          maxReservedTime: 72h
          backupTemplate: {br: {cluster: basic}, s3: {provider: aws, bucket: full}}
          logBackupTemplate: {backupMode: log, br: {cluster: basic}, s3: {provider: aws, bucket: log}}
        """, BackupSchedule.class);
    assertEquals(List.of(), new BackupScheduleAdmissionRules().validateCreate(good));
    assertEquals("Retain", new BackupScheduleAdmissionRules().withDefaults(good).getSpec().getLogBackupTemplate()
        .getCleanPolicy(), "defaulted as upstream's CRD defaults any BackupSpec");
    good.getSpec().getLogBackupTemplate().setBackoffRetryPolicy(new io.tidb.operator.api.v1alpha1.backup.BackoffRetryPolicy());
    assertEquals(List.of("spec.logBackupTemplate.backoffRetryPolicy is not acted on: this operator does not retry a"
        + " failed backup; it stays Failed with the reason"), new BackupScheduleAdmissionRules().warnings(good));
  }

  @Test
  void pitrRestoreFieldsAreChecked() {
    Restore r = ApiObjects.parse("""
        apiVersion: pingcap.com/v1alpha1
        kind: Restore
        metadata: {name: r, namespace: ns}
        spec:
          restoreMode: pitr
          br: {cluster: basic}
          s3: {provider: aws, bucket: logs}
        """, Restore.class);
    assertEquals(List.of("spec.pitrFullBackupStorageProvider"),
        RestoreValidator.validate(r).stream().map(Violation::field).toList());
    r.getSpec().setLogRestoreStartTs("446543216512835585");
    r.getSpec().setPitrRestoredTs("an hour ago");
    assertEquals(List.of("spec.pitrRestoredTs"), RestoreValidator.validate(r).stream().map(Violation::field).toList());
    r.getSpec().setPitrRestoredTs("2024-01-02T03:04:05Z");
    assertEquals(List.of(), RestoreValidator.validate(r), "a point-in-time restore is accepted");
    r.getSpec().setRestoreMode("snapshot");
    assertEquals(List.of("spec.pitrRestoredTs", "spec.logRestoreStartTs"),
        RestoreValidator.validate(r).stream().map(Violation::field).toList());
  }

  @Test
  void timestampsConvertToTso() {
    assertEquals(446543216512835585L, BackupTimestamps.toTso("446543216512835585").orElseThrow());
    long tso = BackupTimestamps.toTso("2024-01-02 03:04:05").orElseThrow();
    assertEquals("2024-01-02T03:04:05Z", BackupTimestamps.instantOf(tso).toString());
    assertEquals(tso, BackupTimestamps.toTso("2024-01-02 11:04:05 +0800").orElseThrow());
    assertEquals(tso, BackupTimestamps.toTso("2024-01-02T03:04:05Z").orElseThrow());
    assertTrue(BackupTimestamps.toTso("soon").isEmpty());
  }
}
