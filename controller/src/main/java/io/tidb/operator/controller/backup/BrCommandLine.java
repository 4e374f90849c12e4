package io.tidb.operator.controller.backup;

import io.tidb.operator.api.v1alpha1.backup.BackupSpec;
import io.tidb.operator.api.v1alpha1.backup.BrConfig;
import io.tidb.operator.api.v1alpha1.backup.RestoreSpec;
import io.tidb.operator.api.v1alpha1.backup.StorageProvider;
import io.tidb.operator.api.v1alpha1.backup.StorageProviders;
import java.util.ArrayList;
import java.util.List;

/**
 * BR's command line for a Backup (snapshot or log) or Restore, as upstream's backup-manager builds it: the
 * subcommand ({@code backup full|db|table}, {@code restore full|db|table}), PD, the storage URL
 * and flags, the table filter, the BR settings, then the user's {@code br.options} last. Pure.
 */
public final class BrCommandLine {

  private BrCommandLine() {}

  /** BR's arguments (without the binary) for a Backup. */
  public static List<String> backup(BackupSpec spec, String pd) {
    StorageProvider storage = StorageProviders.of(spec);
    List<String> args = new ArrayList<>();
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
    common(args, br);
    return args;
  }

  /**
   * BR's arguments (without the binary) for one command of a log backup, as upstream's
   * backup-manager builds them: {@code log start|stop|pause|resume --task-name=<backup>} ({@code
   * --start-ts} from {@code commitTs} on the start), {@code log truncate --until=<logTruncateUntil>},
   * each with PD, the storage and the BR settings.
   */
  public static List<String> log(BackupSpec spec, String pd, String backupName, String command) {
    StorageProvider storage = StorageProviders.of(spec);
    List<String> args = new ArrayList<>(List.of("log", LogBackupCommands.brSubcommand(command)));
    if (LogBackupCommands.TRUNCATE.equals(command)) {
      args.add("--until=" + spec.getLogTruncateUntil());
    } else {
      args.add("--task-name=" + backupName);
    }
    if (LogBackupCommands.START.equals(command) && spec.getCommitTs() != null && !spec.getCommitTs().isEmpty()
        && !"0".equals(spec.getCommitTs())) {
      args.add("--start-ts=" + spec.getCommitTs());
    }
    args.add("--pd=" + pd);
    args.add("--storage=" + StorageUrls.url(storage));
    args.addAll(StorageUrls.flags(storage));
    if (LogBackupCommands.START.equals(command)) {
      filters(args, spec.getTableFilter());
    }
    common(args, spec.getBr());
    return args;
  }

  /** BR's arguments (without the binary) for a Restore. */
  public static List<String> restore(RestoreSpec spec, String pd) {
    StorageProvider storage = StorageProviders.of(spec);
    List<String> args = new ArrayList<>();
    if ("pitr".equals(spec.getRestoreMode())) {
      return pointInTimeRestore(spec, pd, storage);
    }
    args.addAll(List.of("restore", type(spec.getBackupType()), "--pd=" + pd, "--storage=" + StorageUrls.url(storage)));
    args.addAll(StorageUrls.flags(storage));
    dbTable(args, spec.getBackupType(), spec.getBr());
    if (spec.getBr().getOnLine() != null) {
      args.add("--online=" + spec.getBr().getOnLine());
    }
    filters(args, spec.getTableFilter());
    common(args, spec.getBr());
    return args;
  }

  /**
   * {@code restore point}, as upstream's backup-manager builds it: the log backup is the storage,
   * {@code --restored-ts} the point (BR's default, the log's end, when unset), and the full
   * backup it starts from {@code --full-backup-storage} (its URL only, as upstream), else {@code
   * --start-ts} from {@code logRestoreStartTs}.
   */
  private static List<String> pointInTimeRestore(RestoreSpec spec, String pd, StorageProvider storage) {
    List<String> args = new ArrayList<>(List.of("restore", "point", "--pd=" + pd, "--storage=" + StorageUrls.url(storage)));
    args.addAll(StorageUrls.flags(storage));
    if (spec.getPitrRestoredTs() != null && !spec.getPitrRestoredTs().isEmpty()) {
      args.add("--restored-ts=" + spec.getPitrRestoredTs());
    }
    StorageProvider full = spec.getPitrFullBackupStorageProvider();
    if (full != null && !StorageProviders.isEmpty(full)) {
      args.add("--full-backup-storage=" + StorageUrls.url(full));
    } else {
      args.add("--start-ts=" + spec.getLogRestoreStartTs());
    }
    filters(args, spec.getTableFilter());
    common(args, spec.getBr());
    return args;
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

  private static void common(List<String> args, BrConfig br) {
    if (br.getConcurrency() != null) {
      args.add("--concurrency=" + br.getConcurrency());
    }
    if (br.getRateLimit() != null) {
      args.add("--ratelimit=" + br.getRateLimit());
    }
    if (br.getChecksum() != null) {
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
