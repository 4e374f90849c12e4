package io.tidb.operator.api.validation.backup;

import io.tidb.operator.api.GoDuration;
import io.tidb.operator.api.v1alpha1.backup.BackupSchedule;
import io.tidb.operator.api.v1alpha1.backup.BackupScheduleSpec;
import io.tidb.operator.api.v1alpha1.backup.BackupSpec;
import io.tidb.operator.api.validation.Violation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The rules a BackupSchedule must satisfy, every violation at once: a valid cron expression, a
 * retention that parses, and its backup template valid as a Backup's spec once the schedule-level
 * storage and BR settings are filled in ({@link ScheduledBackups#effectiveTemplate}), a snapshot
 * backup ({@code backupMode} {@code snapshot}); the log-backup companion, when there is one, valid
 * the same way and a log backup ({@code backupMode} {@code log}). Compactions are refused: this
 * operator does not run them. Pure.
 */
public final class BackupScheduleValidator {

  private BackupScheduleValidator() {}

  public static List<Violation> validate(BackupSchedule schedule) {
    BackupScheduleSpec spec = schedule.getSpec();
    if (spec == null) {
      return List.of(Violation.required("spec", "a BackupSchedule needs spec.schedule and spec.backupTemplate"));
    }
    List<Violation> out = new ArrayList<>();
    if (BackupStorageRules.blank(spec.getSchedule())) {
      out.add(Violation.required("spec.schedule", "a cron expression such as \"0 2 * * *\""));
    } else {
      Optional<String> problem = CronSchedules.problem(spec.getSchedule());
      problem.ifPresent(p -> out.add(Violation.invalid("spec.schedule", spec.getSchedule(),
          "must be a five-field cron expression (minute hour day-of-month month day-of-week): " + p)));
    }
    if (spec.getMaxBackups() != null && spec.getMaxBackups() <= 0) {
      out.add(Violation.invalid("spec.maxBackups", spec.getMaxBackups(), "must be positive, or unset"));
    }
    if (spec.getMaxReservedTime() != null) {
      try {
        Duration d = GoDuration.parse(spec.getMaxReservedTime());
        if (d.isNegative() || d.isZero()) {
          out.add(Violation.invalid("spec.maxReservedTime", spec.getMaxReservedTime(), "must be positive"));
        }
      } catch (IllegalArgumentException e) {
        out.add(Violation.invalid("spec.maxReservedTime", spec.getMaxReservedTime(),
            "must be a Go duration such as 72h or 30m"));
      }
    }
    if (spec.getCompactBackupTemplate() != null || spec.getCompactInterval() != null) {
      out.add(Violation.forbidden(spec.getCompactBackupTemplate() != null ? "spec.compactBackupTemplate" : "spec.compactInterval",
          "log-backup compaction (CompactBackup) is not supported by this operator"));
    }
    if (spec.getBackupTemplate() == null) {
      out.add(Violation.required("spec.backupTemplate", "the spec of the Backups to create"));
    } else {
      BackupSpec template = ScheduledBackups.effectiveTemplate(spec);
      out.addAll(BackupSpecRules.validate("spec.backupTemplate", template));
      if ("log".equals(template.getBackupMode())) {
        out.add(Violation.notSupported("spec.backupTemplate.backupMode", template.getBackupMode(),
            "the Backups of a schedule are snapshot backups (\"snapshot\"); its log backup comes from"
                + " spec.logBackupTemplate"));
      }
    }
    if (spec.getLogBackupTemplate() != null) {
      BackupSpec log = ScheduledBackups.effectiveLogTemplate(spec);
      List<Violation> logViolations = BackupSpecRules.validate("spec.logBackupTemplate", log);
      out.addAll(logViolations);
      boolean modeReported = logViolations.stream().anyMatch(v -> v.field().equals("spec.logBackupTemplate.backupMode"));
      if (!"log".equals(log.getBackupMode()) && !modeReported) {
        out.add(Violation.notSupported("spec.logBackupTemplate.backupMode", log.getBackupMode(),
            "the log-backup companion of a schedule must be a log backup: supported value \"log\""));
      }
    }
    return out;
  }
}
