package io.tidb.operator.api.validation.backup;

import io.tidb.operator.api.defaulting.FilledDefaults;
import io.tidb.operator.api.defaulting.backup.BackupDefaulter;
import io.tidb.operator.api.v1alpha1.backup.Backup;
import io.tidb.operator.api.validation.AdmissionRules;
import io.tidb.operator.api.validation.DerivedNameLengths;
import io.tidb.operator.api.validation.Violation;
import java.util.ArrayList;
import java.util.List;

/**
 * Backup admission: the defaults, then the same rules on create, update and stored objects (upstream
 * checks them in its controller, on every object).
 */
public final class BackupAdmissionRules implements AdmissionRules<Backup> {

  @Override
  public Class<Backup> resourceType() {
    return Backup.class;
  }

  @Override
  public List<Violation> validateStoredDefaulted(Backup defaulted) {
    return BackupValidator.validate(defaulted);
  }

  @Override
  public List<String> warnings(Backup obj) {
    return BackupWarnings.of(obj);
  }

  @Override
  public Backup defaultInPlace(Backup obj, FilledDefaults filled) {
    return BackupDefaulter.defaultInPlace(obj, filled);
  }

  @Override
  public List<Violation> validateCreateDefaulted(Backup defaulted) {
    List<Violation> out = new ArrayList<>(BackupValidator.validate(defaulted));
    // backup-<name>; a log backup's commands run as backup-<name>-log-truncate and the like
    boolean log = defaulted.getSpec() != null && "log".equals(defaulted.getSpec().getBackupMode());
    DerivedNameLengths.check(defaulted.getMetadata(),
        List.of(DerivedNameLengths.Derived.job("backup-", log ? "-log-truncate" : "")), out);
    return out;
  }

  @Override
  public List<Violation> validateUpdateDefaulted(Backup oldDefaulted, Backup newDefaulted) {
    return BackupValidator.validate(newDefaulted);
  }
}
