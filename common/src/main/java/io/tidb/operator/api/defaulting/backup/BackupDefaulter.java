package io.tidb.operator.api.defaulting.backup;

import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.defaulting.FilledDefaults;
import io.tidb.operator.api.v1alpha1.backup.Backup;
import io.tidb.operator.api.v1alpha1.backup.BackupSchedule;
import io.tidb.operator.api.v1alpha1.backup.BackupSpec;
import io.tidb.operator.api.v1alpha1.backup.Restore;

/**
 * The defaults upstream's CRDs give Backup, Restore and BackupSchedule templates: {@code
 * backupMode: snapshot}, {@code cleanPolicy: Retain}, {@code restoreMode: snapshot} (a schedule's
 * {@code logBackupTemplate} too: upstream's CRD defaults it as any BackupSpec). Pure: each
 * {@code withDefaults} returns a copy, and is idempotent.
 */
public final class BackupDefaulter {

  private static final String SNAPSHOT = "snapshot";
  private static final String RETAIN = "Retain";

  private BackupDefaulter() {}

  public static Backup withDefaults(Backup backup) {
    return defaultInPlace(ApiObjects.deepCopy(backup));
  }

  /** {@link #withDefaults} filled into {@code owned} itself, for a caller that owns it (the webhook). */
  public static Backup defaultInPlace(Backup owned) {
    return defaultInPlace(owned, FilledDefaults.NONE);
  }

  /** {@link #defaultInPlace(Backup)}, telling {@code filled} each field it fills in. */
  public static Backup defaultInPlace(Backup owned, FilledDefaults filled) {
    if (owned.getSpec() != null) {
      defaults(owned.getSpec(), "/spec", filled);
    }
    return owned;
  }

  public static Restore withDefaults(Restore restore) {
    return defaultInPlace(ApiObjects.deepCopy(restore));
  }

  /** {@link #withDefaults} filled into {@code owned} itself, for a caller that owns it (the webhook). */
  public static Restore defaultInPlace(Restore owned) {
    return defaultInPlace(owned, FilledDefaults.NONE);
  }

  /** {@link #defaultInPlace(Restore)}, telling {@code filled} each field it fills in. */
  public static Restore defaultInPlace(Restore owned, FilledDefaults filled) {
    if (owned.getSpec() != null && owned.getSpec().getRestoreMode() == null) {
      owned.getSpec().setRestoreMode(SNAPSHOT);
      filled.filled("/spec/restoreMode", SNAPSHOT);
    }
    return owned;
  }

  public static BackupSchedule withDefaults(BackupSchedule schedule) {
    return defaultInPlace(ApiObjects.deepCopy(schedule));
  }

  /** {@link #withDefaults} filled into {@code owned} itself, for a caller that owns it (the webhook). */
  public static BackupSchedule defaultInPlace(BackupSchedule owned) {
    return defaultInPlace(owned, FilledDefaults.NONE);
  }

  /** {@link #defaultInPlace(BackupSchedule)}, telling {@code filled} each field it fills in. */
  public static BackupSchedule defaultInPlace(BackupSchedule owned, FilledDefaults filled) {
    if (owned.getSpec() != null && owned.getSpec().getBackupTemplate() != null) {
      defaults(owned.getSpec().getBackupTemplate(), "/spec/backupTemplate", filled);
    }
    if (owned.getSpec() != null && owned.getSpec().getLogBackupTemplate() != null) {
      defaults(owned.getSpec().getLogBackupTemplate(), "/spec/logBackupTemplate", filled);
    }
    return owned;
  }

  private static void defaults(BackupSpec spec, String at, FilledDefaults filled) {
    filled.fillUnset(spec.getBackupMode(), spec::setBackupMode, SNAPSHOT, at + "/backupMode");
    filled.fillUnset(spec.getCleanPolicy(), spec::setCleanPolicy, RETAIN, at + "/cleanPolicy");
  }
}
