package io.tidb.operator.api.validation.backup;

import io.tidb.operator.api.v1alpha1.backup.BackoffRetryPolicy;
import io.tidb.operator.api.v1alpha1.backup.BackupSpec;
import io.tidb.operator.api.v1alpha1.backup.StorageProviders;
import io.tidb.operator.api.validation.Violation;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The rules of a BackupSpec (a Backup's spec or a BackupSchedule's template), every violation at
 * once: upstream's {@code ValidateBackup} without what needs the cluster, exactly one storage
 * provider, the log-backup fields only with {@code backupMode: log}, and a refusal of what this
 * operator does not run (volume-snapshot mode, the Dumpling path) instead of accepting and ignoring
 * it. Pure.
 */
public final class BackupSpecRules {

  public static final Set<String> MODES = Set.of("snapshot", "log");
  public static final Set<String> LOG_SUBCOMMANDS = Set.of("log-start", "log-stop", "log-pause");
  public static final Set<String> CLEAN_POLICIES = Set.of("Retain", "OnFailure", "Delete");

  private BackupSpecRules() {}

  public static List<Violation> validate(String path, BackupSpec spec) {
    List<Violation> out = new ArrayList<>();
    String mode = spec.getBackupMode();
    if ("volume-snapshot".equals(mode)) {
      out.add(Violation.notSupported(path + ".backupMode", mode,
          "volume-snapshot backups (EBS/GCE disk snapshots) are not supported by this operator;"
              + " supported values: \"snapshot\", \"log\""));
    } else if (mode != null && !mode.isEmpty() && !MODES.contains(mode)) {
      out.add(Violation.notSupported(path + ".backupMode", mode, "supported values: \"snapshot\", \"log\""));
    }
    if (spec.getBr() == null) {
      out.add(Violation.required(path + ".br",
          "BR settings with br.cluster; the Dumpling path (spec.from without spec.br) is not supported"
              + " by this operator"));
    } else {
      BrRules.br(path, spec.getBr(), spec.getBackupType(), "back up", out);
    }
    out.addAll(BackupStorageRules.validate(path, StorageProviders.of(spec)));
    if (spec.getCleanPolicy() != null && !CLEAN_POLICIES.contains(spec.getCleanPolicy())) {
      out.add(Violation.notSupported(path + ".cleanPolicy", spec.getCleanPolicy(),
          "supported values: \"Retain\", \"OnFailure\", \"Delete\""));
    }
    if (spec.getTikvGCLifeTime() != null) {
      BrRules.duration(path + ".tikvGCLifeTime", spec.getTikvGCLifeTime(), out);
    }
    if ("log".equals(mode)) {
      BrRules.timestamp(path + ".commitTs", spec.getCommitTs(), out);
      BrRules.timestamp(path + ".logTruncateUntil", spec.getLogTruncateUntil(), out);
      String sub = spec.getLogSubcommand();
      if (sub != null && !sub.isEmpty() && !LOG_SUBCOMMANDS.contains(sub)) {
        out.add(Violation.notSupported(path + ".logSubcommand", sub,
            "supported values: \"log-start\", \"log-stop\", \"log-pause\""));
      }
    } else {
      BrRules.timestamp(path + ".commitTs", spec.getCommitTs(), out);
      for (String logOnly : logOnlyFieldsSet(spec)) {
        out.add(Violation.forbidden(path + "." + logOnly, "only for backupMode \"log\""));
      }
    }
    BackoffRetryPolicy retry = spec.getBackoffRetryPolicy();
    if (retry != null) {
      if (retry.getMinRetryDuration() != null) {
        BrRules.duration(path + ".backoffRetryPolicy.minRetryDuration", retry.getMinRetryDuration(), out);
      }
      if (retry.getRetryTimeout() != null) {
        BrRules.duration(path + ".backoffRetryPolicy.retryTimeout", retry.getRetryTimeout(), out);
      }
      if (retry.getMaxRetryTimes() != null && retry.getMaxRetryTimes() < 0) {
        out.add(Violation.invalid(path + ".backoffRetryPolicy.maxRetryTimes", retry.getMaxRetryTimes(),
            "must not be negative"));
      }
    }
    return out;
  }

  private static List<String> logOnlyFieldsSet(BackupSpec spec) {
    List<String> set = new ArrayList<>();
    if (spec.getLogSubcommand() != null && !spec.getLogSubcommand().isEmpty()) {
      set.add("logSubcommand");
    }
    if (spec.getLogTruncateUntil() != null && !spec.getLogTruncateUntil().isEmpty()) {
      set.add("logTruncateUntil");
    }
    if (Boolean.TRUE.equals(spec.getLogStop())) {
      set.add("logStop");
    }
    return set;
  }
}
