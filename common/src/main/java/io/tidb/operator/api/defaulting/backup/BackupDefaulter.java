package io.tidb.operator.api.defaulting.backup;

import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.v1alpha1.backup.Backup;
import io.tidb.operator.api.v1alpha1.backup.BackupSchedule;
import io.tidb.operator.api.v1alpha1.backup.BackupSpec;
import io.tidb.operator.api.v1alpha1.backup.Restore;

/**
 * The defaults upstream's CRDs give Backup, Restore and BackupSchedule templates: {@code
 * backupMode: snapshot}, {@code cleanPolicy: Retain}, {@code restoreMode: snapshot} (a schedule's
 * {@code logBackupTemplate} too: upstream's CRD defaults it as any BackupSpec). Pure: each
 * method returns a copy, and is idempotent.
 */
public final class BackupDefaulter {

  private BackupDefaulter() {}

  public static Backup withDefaults(Backup backup) {
    Backup copy = ApiObjects.deepCopy(backup);
    if (copy.getSpec() != null) {
      defaults(copy.getSpec());
    }
    return copy;
  }

  public static Restore withDefaults(Restore restore) {
    Restore copy = ApiObjects.deepCopy(restore);
    if (copy.getSpec() != null && copy.getSpec().getRestoreMode() == null) {
      copy.getSpec().setRestoreMode("snapshot");
    }
    return copy;
  }

  public static BackupSchedule withDefaults(BackupSchedule schedule) {
    BackupSchedule copy = ApiObjects.deepCopy(schedule);
    if (copy.getSpec() != null && copy.getSpec().getBackupTemplate() != null) {
      defaults(copy.getSpec().getBackupTemplate());
    }
    if (copy.getSpec() != null && copy.getSpec().getLogBackupTemplate() != null) {
      defaults(copy.getSpec().getLogBackupTemplate());
    }
    return copy;
  }

  private static void defaults(BackupSpec spec) {
    if (spec.getBackupMode() == null) {
      spec.setBackupMode("snapshot");
    }
    if (spec.getCleanPolicy() == null) {
      spec.setCleanPolicy("Retain");
    }
  }
}
