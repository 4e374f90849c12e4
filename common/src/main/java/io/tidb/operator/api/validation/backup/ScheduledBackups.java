package io.tidb.operator.api.validation.backup;

import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.v1alpha1.backup.BackupScheduleSpec;
import io.tidb.operator.api.v1alpha1.backup.BackupSpec;
import io.tidb.operator.api.v1alpha1.backup.StorageProvider;
import io.tidb.operator.api.v1alpha1.backup.StorageProviders;

/** How a BackupSchedule's template becomes a Backup's spec. Pure. */
public final class ScheduledBackups {

  private ScheduledBackups() {}

  /**
   * The template with the schedule-level storage (when the template has none) and BR settings
   * (when the template has none) filled in, as upstream does. {@code spec} is not changed.
   */
  public static BackupSpec effectiveTemplate(BackupScheduleSpec spec) {
    return filled(spec, spec.getBackupTemplate());
  }

  /**
   * The log-backup companion's template ({@code logBackupTemplate}) filled in the same way; {@code
   * null} when the schedule has none. {@code spec} is not changed.
   */
  public static BackupSpec effectiveLogTemplate(BackupScheduleSpec spec) {
    return spec.getLogBackupTemplate() == null ? null : filled(spec, spec.getLogBackupTemplate());
  }

  private static BackupSpec filled(BackupScheduleSpec spec, BackupSpec original) {
    BackupSpec template = ApiObjects.deepCopy(original);
    if (StorageProviders.isEmpty(StorageProviders.of(template))) {
      StorageProvider outer = ApiObjects.deepCopy(StorageProviders.of(spec));
      template.setS3(outer.getS3());
      template.setGcs(outer.getGcs());
      template.setAzblob(outer.getAzblob());
      template.setLocal(outer.getLocal());
    }
    if (template.getBr() == null && spec.getBr() != null) {
      template.setBr(ApiObjects.deepCopy(spec.getBr()));
    }
    if (template.getStorageClassName() == null) {
      template.setStorageClassName(spec.getStorageClassName());
    }
    if (template.getStorageSize() == null) {
      template.setStorageSize(spec.getStorageSize());
    }
    return template;
  }
}
