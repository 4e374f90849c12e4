package io.tidb.operator.api.validation.backup;

import io.tidb.operator.api.defaulting.FilledDefaults;
import io.tidb.operator.api.defaulting.backup.BackupDefaulter;
import io.tidb.operator.api.v1alpha1.backup.Restore;
import io.tidb.operator.api.validation.AdmissionRules;
import io.tidb.operator.api.validation.DerivedNameLengths;
import io.tidb.operator.api.validation.Violation;
import java.util.ArrayList;
import java.util.List;

/**
 * Restore admission: the defaults, then the same rules on create, update and stored objects (upstream
 * checks them in its controller, on every object).
 */
public final class RestoreAdmissionRules implements AdmissionRules<Restore> {

  @Override
  public Class<Restore> resourceType() {
    return Restore.class;
  }

  @Override
  public List<Violation> validateStoredDefaulted(Restore defaulted) {
    return RestoreValidator.validate(defaulted);
  }

  @Override
  public List<String> warnings(Restore obj) {
    return BackupWarnings.of(obj);
  }

  @Override
  public Restore defaultInPlace(Restore obj, FilledDefaults filled) {
    return BackupDefaulter.defaultInPlace(obj, filled);
  }

  @Override
  public List<Violation> validateCreateDefaulted(Restore defaulted) {
    List<Violation> out = new ArrayList<>(RestoreValidator.validate(defaulted));
    DerivedNameLengths.check(defaulted.getMetadata(),
        List.of(DerivedNameLengths.Derived.job("restore-", "")), out);
    return out;
  }

  @Override
  public List<Violation> validateUpdateDefaulted(Restore oldDefaulted, Restore newDefaulted) {
    return RestoreValidator.validate(newDefaulted);
  }
}
