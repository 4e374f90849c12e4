package io.tidb.operator.controller.backup;

import io.tidb.operator.api.v1alpha1.backup.BackupSpec;
import io.tidb.operator.api.v1alpha1.backup.BrConfig;
import io.tidb.operator.api.v1alpha1.backup.RestoreSpec;
import io.tidb.operator.api.v1alpha1.backup.StorageProvider;
import io.tidb.operator.api.v1alpha1.backup.StorageProviders;
import java.util.ArrayList;
import java.util.List;

/**
 * BR's command line for a Backup or Restore, as upstream's backup-manager builds it: the
 * subcommand ({@code backup full|db|table}, {@code log start|stop|pause|truncate}, {@code restore
 * full|db|table|point}), PD, the storage URL and flags, the table filter, the BR settings, then
 * the user's {@code br.options} last. Pure.
 */
public final class BrCommandLine {

  private BrCommandLine() {}

  /** BR's arguments (without the binary) for a Backup. */
  public static List<String> backup(String name, BackupSpec spec, String pd) {
    StorageProvider storage = StorageProviders.of(spec);
    List<String> args = new ArrayList<>();
    String mode = spec.getBackupMode() == null ? "snapshot" : spec.getBackupMode();
    if ("log".equals(mode)) {
      String sub = logSubcommand(spec);
      args.addAll(List.of("log", sub));
      if (!"truncate".equals(sub)) {
        args.add("--task-name=" + name);
        args.add("--pd=" + pd);
      }
      if ("start".equals(sub) && spec.getCommitTs() != null && !spec.getCommitTs().isEmpty()) {
        args.add("--start-ts=" + spec.getCommitTs());
      }
      if ("start".equals(sub) || "truncate".equals(sub)) {
        args.add("--storage=" + StorageUrls.url(storage));
        args.addAll(StorageUrls.flags(storage));
      }
      if ("truncate".equals(sub)) {
        args.add("--until=" + spec.getLogTruncateUntil());
        args.add("--yes");
      }
      common(args, spec.getBr(), false);
      return args;
    }
    args.addAll(List.of("backup", type(spec.getBackupType()), "--pd=" + pd,
        "--storage=" + StorageUrls.url(storage)));
    args.addAll(StorageUrls.flags(storage));
    dbTable(args, spec.getBackupType(), spec.getBr());
    filters(args, spec.getTableFilter());
    if (spec.getCommitTs() != null && !spec.getCommitTs().isEmpty()) {
      args.add("--backupts=" + spec.getCommitTs());
    }
    BrConfig br = spec.getBr();
    if (br.getTimeAgo() != null) {
      args.add("--timeago=" + br.getTimeAgo());
    }
    if (spec.getTikvGCLifeTime() != null) {
      args.add("--gcttl=" + spec.getTikvGCLifeTime());
    }
    common(args, br, true);
    return args;
  }

  /** BR's arguments (without the binary) for a Restore. */
  public static List<String> restore(RestoreSpec spec, String pd) {
    StorageProvider storage = StorageProviders.of(spec);
    List<String> args = new ArrayList<>();
    if ("pitr".equals(spec.getRestoreMode())) {
      args.addAll(List.of("restore", "point", "--pd=" + pd, "--storage=" + StorageUrls.url(storage)));
      args.addAll(StorageUrls.flags(storage));
      StorageProvider full = spec.getPitrFullBackupStorageProvider();
      if (full != null && !StorageProviders.isEmpty(full)) {
        args.add("--full-backup-storage=" + StorageUrls.url(full));
      }
      if (spec.getLogRestoreStartTs() != null && !spec.getLogRestoreStartTs().isEmpty()) {
        args.add("--start-ts=" + spec.getLogRestoreStartTs());
      }
      if (spec.getPitrRestoredTs() != null && !spec.getPitrRestoredTs().isEmpty()) {
        args.add("--restored-ts=" + spec.getPitrRestoredTs());
      }
    } else {
      args.addAll(List.of("restore", type(spec.getBackupType()), "--pd=" + pd, "--storage=" + StorageUrls.url(storage)));
      args.addAll(StorageUrls.flags(storage));
      dbTable(args, spec.getBackupType(), spec.getBr());
      if (spec.getBr().getOnLine() != null) {
        args.add("--online=" + spec.getBr().getOnLine());
      }
    }
    filters(args, spec.getTableFilter());
    common(args, spec.getBr(), true);
    return args;
  }

  /** The BR log subcommand of a log backup: upstream's logSubcommand, or logStop, or start. */
  public static String logSubcommand(BackupSpec spec) {
    if (spec.getLogSubcommand() != null && !spec.getLogSubcommand().isEmpty()) {
      return spec.getLogSubcommand().substring("log-".length());
    }
    if (Boolean.TRUE.equals(spec.getLogStop())) {
      return "stop";
    }
    if (spec.getLogTruncateUntil() != null && !spec.getLogTruncateUntil().isEmpty()) {
      return "truncate";
    }
    return "start";
  }

  private static String type(String backupType) {
    return backupType == null || backupType.isEmpty() ? "full" : backupType;
  }

  private static void dbTable(List<String> args, String type, BrConfig br) {
    if ("db".equals(type) || "table".equals(type)) {
      args.add("--db=" + br.getDb());
    }
    if ("table".equals(type)) {
      args.add("--table=" + br.getTable());
    }
  }

  private static void filters(List<String> args, List<String> filters) {
    if (filters != null) {
      filters.forEach(f -> args.add("--filter=" + f));
    }
  }

  private static void common(List<String> args, BrConfig br, boolean data) {
    if (data && br.getConcurrency() != null) {
      args.add("--concurrency=" + br.getConcurrency());
    }
    if (data && br.getRateLimit() != null) {
      args.add("--ratelimit=" + br.getRateLimit());
    }
    if (data && br.getChecksum() != null) {
      args.add("--checksum=" + br.getChecksum());
    }
    if (br.getCheckRequirements() != null) {
      args.add("--check-requirements=" + br.getCheckRequirements());
    }
    if (br.getSendCredToTikv() != null) {
      args.add("--send-credentials-to-tikv=" + br.getSendCredToTikv());
    }
    if (br.getLogLevel() != null) {
      args.add("--log-level=" + br.getLogLevel());
    }
    if (br.getStatusAddr() != null) {
      args.add("--status-addr=" + br.getStatusAddr());
    }
    if (br.getOptions() != null) {
      args.addAll(br.getOptions());
    }
  }
}
