package io.tidb.operator.api.validation.backup;

import io.tidb.operator.api.GoDuration;
import io.tidb.operator.api.v1alpha1.backup.BrConfig;
import io.tidb.operator.api.validation.Violation;
import java.util.List;
import java.util.Set;

/** Rules shared by Backup and Restore: the BR settings, the backup type, Go durations. Pure. */
final class BrRules {

  static final Set<String> BACKUP_TYPES = Set.of("full", "db", "table");

  private BrRules() {}

  /** spec.br (present) and spec.backupType, upstream's rules. */
  static void br(String path, BrConfig br, String backupType, String what, List<Violation> out) {
    if (BackupStorageRules.blank(br.getCluster())) {
      out.add(Violation.required(path + ".br.cluster", "the name of the TidbCluster to " + what));
    }
    if (backupType != null && !backupType.isEmpty() && !BACKUP_TYPES.contains(backupType)) {
      out.add(Violation.notSupported(path + ".backupType", backupType,
          "supported values: \"full\", \"db\", \"table\""));
    }
    if (("db".equals(backupType) || "table".equals(backupType)) && BackupStorageRules.blank(br.getDb())) {
      out.add(Violation.required(path + ".br.db", "the database of a " + backupType + " " + what));
    }
    if ("table".equals(backupType) && BackupStorageRules.blank(br.getTable())) {
      out.add(Violation.required(path + ".br.table", "the table of a table " + what));
    }
    if (br.getConcurrency() != null && br.getConcurrency() <= 0) {
      out.add(Violation.invalid(path + ".br.concurrency", br.getConcurrency(), "must be positive"));
    }
    if (br.getRateLimit() != null && br.getRateLimit() <= 0) {
      out.add(Violation.invalid(path + ".br.rateLimit", br.getRateLimit(), "must be positive (MiB/s)"));
    }
    if (br.getTimeAgo() != null) {
      duration(path + ".br.timeAgo", br.getTimeAgo(), out);
    }
  }

  static void duration(String path, String value, List<Violation> out) {
    try {
      GoDuration.parse(value);
    } catch (IllegalArgumentException e) {
      out.add(Violation.invalid(path, value, "must be a Go duration such as 72h, 30m or 300s"));
    }
  }

  static void timestamp(String path, String value, List<Violation> out) {
    if (value != null && !value.isEmpty() && BackupTimestamps.toTso(value).isEmpty()) {
      out.add(Violation.invalid(path, value, "must be " + BackupTimestamps.FORMS));
    }
  }
}
