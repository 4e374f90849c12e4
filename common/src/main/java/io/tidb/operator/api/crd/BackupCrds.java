package io.tidb.operator.api.crd;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceColumnDefinition;
import java.util.List;

/**
 * The catalog entries of Backup, Restore and BackupSchedule: upstream's {@code kubectl get bk|rt|bks}
 * columns in upstream's order. Pure functions.
 */
public final class BackupCrds {

  public static final CrdEntry BACKUP = new CrdEntry("Backup", "backups", backupColumns());
  public static final CrdEntry RESTORE = new CrdEntry("Restore", "restores", restoreColumns());
  public static final CrdEntry BACKUP_SCHEDULE =
      new CrdEntry("BackupSchedule", "backupschedules", scheduleColumns());

  private BackupCrds() {}

  /** A column shown only with {@code -o wide} (or a higher priority), as upstream's. */
  private static CustomResourceColumnDefinition wide(
      int priority, String name, String type, String jsonPath, String description) {
    CustomResourceColumnDefinition column = CrdEntry.column(name, type, jsonPath, description);
    column.setPriority(priority);
    return column;
  }

  static List<CustomResourceColumnDefinition> backupColumns() {
    return List.of(
        CrdEntry.column("Type", "string", ".spec.backupType", "the type of backup, such as full, db, table. Only used when Mode = snapshot."),
        CrdEntry.column("Mode", "string", ".spec.backupMode", "the mode of backup, such as snapshot, log."),
        CrdEntry.column("Status", "string", ".status.phase", "The current status of the backup"),
        CrdEntry.column("BackupPath", "string", ".status.backupPath", "The full path of backup data"),
        CrdEntry.column("BackupSize", "string", ".status.backupSizeReadable", "The data size of the backup"),
        wide(10, "IncrementalBackupSize", "string", ".status.incrementalBackupSizeReadable",
            "The real size of volume snapshot backup, only valid to volume snapshot backup"),
        CrdEntry.column("CommitTS", "string", ".status.commitTs", "The commit ts of the backup"),
        CrdEntry.column("LogTruncateUntil", "string", ".status.logSuccessTruncateUntil",
            "The log backup truncate until ts"),
        wide(1, "Started", "date", ".status.timeStarted", "The time at which the backup was started"),
        wide(1, "Completed", "date", ".status.timeCompleted", "The time at which the backup was completed"),
        CrdEntry.column("TimeTaken", "string", ".status.timeTaken", "The time that the backup takes"),
        CrdEntry.column("Age", "date", ".metadata.creationTimestamp", "Time since creation"));
  }

  static List<CustomResourceColumnDefinition> restoreColumns() {
    return List.of(
        CrdEntry.column("Status", "string", ".status.phase", "The current status of the restore"),
        wide(1, "Started", "date", ".status.timeStarted", "The time at which the restore was started"),
        wide(1, "Completed", "date", ".status.timeCompleted", "The time at which the restore was completed"),
        CrdEntry.column("TimeTaken", "string", ".status.timeTaken", "The time that the restore takes"),
        CrdEntry.column("CommitTS", "string", ".status.commitTs", "The commit ts of tidb cluster restore"),
        CrdEntry.column("Age", "date", ".metadata.creationTimestamp", "Time since creation"));
  }

  static List<CustomResourceColumnDefinition> scheduleColumns() {
    return List.of(
        CrdEntry.column("Schedule", "string", ".spec.schedule", "The cron format string used for backup scheduling"),
        CrdEntry.column("MaxBackups", "integer", ".spec.maxBackups", "The max number of backups we want to keep"),
        CrdEntry.column("MaxReservedTime", "string", ".spec.maxReservedTime", "How long backups we want to keep"),
        wide(1, "LastBackup", "string", ".status.lastBackup", "The last backup CR name"),
        wide(1, "LastBackupTime", "date", ".status.lastBackupTime", "The last time the backup was successfully created"),
        CrdEntry.column("Age", "date", ".metadata.creationTimestamp", "Time since creation"));
  }
}
