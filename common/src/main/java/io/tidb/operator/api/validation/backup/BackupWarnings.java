package io.tidb.operator.api.validation.backup;

import io.tidb.operator.api.v1alpha1.backup.Backup;
import io.tidb.operator.api.v1alpha1.backup.BackupSchedule;
import io.tidb.operator.api.v1alpha1.backup.BackupSpec;
import io.tidb.operator.api.v1alpha1.backup.Restore;
import io.tidb.operator.api.v1alpha1.backup.RestoreSpec;
import java.util.ArrayList;
import java.util.List;

/** Fields accepted for compatibility that this operator does not act on, as admission warnings. Pure. */
public final class BackupWarnings {

  private BackupWarnings() {}

  public static List<String> of(Backup backup) {
    return backup.getSpec() == null ? List.of() : of("spec", backup.getSpec());
  }

  public static List<String> of(BackupSchedule schedule) {
    List<String> out = new ArrayList<>();
    if (schedule.getSpec() != null && schedule.getSpec().getBackupTemplate() != null) {
      out.addAll(of("spec.backupTemplate", schedule.getSpec().getBackupTemplate()));
    }
    if (schedule.getSpec() != null && schedule.getSpec().getLogBackupTemplate() != null) {
      out.addAll(of("spec.logBackupTemplate", schedule.getSpec().getLogBackupTemplate()));
    }
    return out;
  }

  public static List<String> of(Restore restore) {
    List<String> out = new ArrayList<>();
    RestoreSpec spec = restore.getSpec();
    if (spec != null && spec.getTo() != null && spec.getBr() != null) {
      out.add("spec.to is not used: BR restores through PD, and this operator runs no Lightning");
    }
    return out;
  }

  private static List<String> of(String path, BackupSpec spec) {
    List<String> out = new ArrayList<>();
    if (spec.getBackoffRetryPolicy() != null) {
      out.add(path + ".backoffRetryPolicy is not acted on: this operator does not retry a failed backup;"
          + " it stays Failed with the reason");
    }
    if (spec.getFrom() != null && spec.getBr() != null) {
      out.add(path + ".from is not used: BR backs up through PD (TiKV before v4.0.8 is not supported)");
    }
    if (spec.getDumpling() != null) {
      out.add(path + ".dumpling is not used: this operator runs no Dumpling");
    }
    return out;
  }
}
