package io.tidb.operator.api.validation.backup;

import io.tidb.operator.api.v1alpha1.backup.Backup;
import io.tidb.operator.api.v1alpha1.backup.BackupSpec;
import io.tidb.operator.api.validation.Violation;
import java.util.List;

/** The rules a Backup must satisfy on its own, every violation at once. Pure. */
public final class BackupValidator {

  private BackupValidator() {}

  public static List<Violation> validate(Backup backup) {
    BackupSpec spec = backup.getSpec();
    if (spec == null) {
      return List.of(Violation.required("spec", "a Backup needs spec.br and one storage provider"));
    }
    return BackupSpecRules.validate("spec", spec);
  }

  /** The backup mode, snapshot when unset. */
  public static String effectiveMode(BackupSpec spec) {
    return spec.getBackupMode() == null || spec.getBackupMode().isEmpty() ? "snapshot" : spec.getBackupMode();
  }
}
