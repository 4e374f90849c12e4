package io.tidb.operator.api.validation.backup;

import io.tidb.operator.api.defaulting.FilledDefaults;
import io.tidb.operator.api.defaulting.backup.BackupDefaulter;
import io.tidb.operator.api.v1alpha1.backup.BackupSchedule;
import io.tidb.operator.api.validation.AdmissionRules;
import io.tidb.operator.api.validation.DerivedNameLengths;
import io.tidb.operator.api.validation.Violation;
import java.util.ArrayList;
import java.util.List;

/**
 * BackupSchedule admission: the defaults, then the same rules on create, update and stored objects (upstream
 * checks them in its controller, on every object).
 */
public final class BackupScheduleAdmissionRules implements AdmissionRules<BackupSchedule> {

  @Override
  public Class<BackupSchedule> resourceType() {
    return BackupSchedule.class;
  }

  @Override
  public List<Violation> validateStoredDefaulted(BackupSchedule defaulted) {
    return BackupScheduleValidator.validate(defaulted);
  }

  @Override
  public List<String> warnings(BackupSchedule obj) {
    return BackupWarnings.of(obj);
  }

  @Override
  public BackupSchedule defaultInPlace(BackupSchedule obj, FilledDefaults filled) {
    return BackupDefaulter.defaultInPlace(obj, filled);
  }

  @Override
  public List<Violation> validateCreateDefaulted(BackupSchedule defaulted) {
    List<Violation> out = new ArrayList<>(BackupScheduleValidator.validate(defaulted));
    // each backup is <name>-<yyyy-mm-ddThh-mm-ss>, run by the Job backup-<backup>; the log
    // backup is log-<name>, its commands run as backup-log-<name>-log-truncate and the like
    List<DerivedNameLengths.Derived> derived = new ArrayList<>();
    if (defaulted.getSpec() == null || defaulted.getSpec().getBackupTemplate() != null) {
      derived.add(DerivedNameLengths.Derived.job("backup-", "-yyyy-mm-ddthh-mm-ss"));
    }
    if (defaulted.getSpec() != null && defaulted.getSpec().getLogBackupTemplate() != null) {
      derived.add(DerivedNameLengths.Derived.job("backup-log-", "-log-truncate"));
    }
    DerivedNameLengths.check(defaulted.getMetadata(), derived, out);
    return out;
  }

  @Override
  public List<Violation> validateUpdateDefaulted(BackupSchedule oldDefaulted, BackupSchedule newDefaulted) {
    return BackupScheduleValidator.validate(newDefaulted);
  }
}
