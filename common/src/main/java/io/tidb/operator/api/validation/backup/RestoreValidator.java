package io.tidb.operator.api.validation.backup;

import io.tidb.operator.api.v1alpha1.backup.Restore;
import io.tidb.operator.api.v1alpha1.backup.RestoreSpec;
import io.tidb.operator.api.v1alpha1.backup.StorageProvider;
import io.tidb.operator.api.v1alpha1.backup.StorageProviders;
import io.tidb.operator.api.validation.Violation;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The rules a Restore must satisfy on its own, every violation at once: upstream's {@code
 * ValidateRestore} without what needs the cluster, exactly one storage provider, point-in-time
 * restore's rules, and a refusal of volume-snapshot restores and the Lightning path. Pure.
 */
public final class RestoreValidator {

  public static final Set<String> MODES = Set.of("snapshot", "pitr");

  private RestoreValidator() {}

  public static List<Violation> validate(Restore restore) {
    RestoreSpec spec = restore.getSpec();
    if (spec == null) {
      return List.of(Violation.required("spec", "a Restore needs spec.br and one storage provider"));
    }
    List<Violation> out = new ArrayList<>();
    String mode = spec.getRestoreMode();
    if ("volume-snapshot".equals(mode)) {
      out.add(Violation.notSupported("spec.restoreMode", mode,
          "volume-snapshot restores are not supported by this operator; supported values: \"snapshot\", \"pitr\""));
    } else if (mode != null && !mode.isEmpty() && !MODES.contains(mode)) {
      out.add(Violation.notSupported("spec.restoreMode", mode, "supported values: \"snapshot\", \"pitr\""));
    }
    if (spec.getBr() == null) {
      out.add(Violation.required("spec.br",
          "BR settings with br.cluster; the Lightning path (spec.to without spec.br) is not supported"
              + " by this operator"));
    } else {
      BrRules.br("spec", spec.getBr(), spec.getBackupType(), "restore", out);
    }
    out.addAll(BackupStorageRules.validate("spec", StorageProviders.of(spec)));
    if (spec.getTikvGCLifeTime() != null) {
      BrRules.duration("spec.tikvGCLifeTime", spec.getTikvGCLifeTime(), out);
    }
    StorageProvider full = spec.getPitrFullBackupStorageProvider();
    boolean hasFull = full != null && !StorageProviders.isEmpty(full);
    boolean hasStart = spec.getLogRestoreStartTs() != null && !spec.getLogRestoreStartTs().isEmpty();
    if ("pitr".equals(mode)) {
      if (hasFull && hasStart) {
        out.add(Violation.forbidden("spec.logRestoreStartTs",
            "spec.pitrFullBackupStorageProvider and spec.logRestoreStartTs cannot both be set in pitr mode"));
      } else if (!hasFull && !hasStart) {
        out.add(Violation.required("spec.pitrFullBackupStorageProvider",
            "pitr mode needs either spec.pitrFullBackupStorageProvider or spec.logRestoreStartTs"));
      }
      if (hasFull) {
        out.addAll(BackupStorageRules.validate("spec.pitrFullBackupStorageProvider", full));
      }
      BrRules.timestamp("spec.pitrRestoredTs", spec.getPitrRestoredTs(), out);
      BrRules.timestamp("spec.logRestoreStartTs", spec.getLogRestoreStartTs(), out);
    } else {
      if (hasFull) {
        out.add(Violation.forbidden("spec.pitrFullBackupStorageProvider", "only for restoreMode \"pitr\""));
      }
      if (spec.getPitrRestoredTs() != null && !spec.getPitrRestoredTs().isEmpty()) {
        out.add(Violation.forbidden("spec.pitrRestoredTs", "only for restoreMode \"pitr\""));
      }
      if (hasStart) {
        out.add(Violation.forbidden("spec.logRestoreStartTs", "only for restoreMode \"pitr\""));
      }
    }
    if (spec.getBackoffLimit() != null && spec.getBackoffLimit() < 0) {
      out.add(Violation.invalid("spec.backoffLimit", spec.getBackoffLimit(), "must not be negative"));
    }
    return out;
  }
}
