package io.tidb.operator.controller.backup;

import io.tidb.operator.api.v1alpha1.backup.BackupSpec;
import io.tidb.operator.api.v1alpha1.backup.BackupStatus;
import io.tidb.operator.api.validation.backup.BackupTimestamps;
import java.util.Optional;

/**
 * Pure decisions of a log backup ({@code backupMode: log}), as upstream's: which BR log command the
 * spec asks for now, given what the status says is done; whether it is done already; whether it
 * must wait for the start; the Job that runs it and the phase it leaves.
 *
 * <p>The command, as upstream's {@code ParseLogBackupSubcommand}: {@code logSubcommand} empty means
 * {@code log-stop} with upstream's older {@code logStop: true} (or once stopped), {@code log-resume}
 * when paused, else {@code log-start}; {@code log-start} while paused means {@code log-resume}; then,
 * once that command is done, a {@code logTruncateUntil} not yet truncated to means {@code
 * log-truncate}.
 */
public final class LogBackupCommands {

  public static final String START = "log-start";
  public static final String STOP = "log-stop";
  public static final String PAUSE = "log-pause";
  public static final String RESUME = "log-resume";
  public static final String TRUNCATE = "log-truncate";

  /** The phases of a log backup besides the shared ones. */
  public static final String PAUSED = "Paused";
  public static final String STOPPED = "Stopped";

  private LogBackupCommands() {}

  /** The command the spec asks for now; empty for an unknown {@code logSubcommand}. */
  public static Optional<String> next(BackupSpec spec, BackupStatus status) {
    String sub = spec.getLogSubcommand() == null ? "" : spec.getLogSubcommand();
    String command;
    switch (sub) {
      case "":
        if (Boolean.TRUE.equals(spec.getLogStop()) || stopped(status)) {
          command = STOP;
        } else if (paused(status)) {
          command = RESUME;
        } else {
          command = START;
        }
        break;
      case START:
        command = paused(status) ? RESUME : START;
        break;
      case STOP:
        command = STOP;
        break;
      case PAUSE:
        command = PAUSE;
        break;
      default:
        return Optional.empty();
    }
    String until = spec.getLogTruncateUntil();
    if (done(spec, status, command) && until != null && !until.isEmpty()
        && !until.equals(status.getLogSuccessTruncateUntil())) {
      return Optional.of(TRUNCATE);
    }
    return Optional.of(command);
  }

  /** Whether the status says {@code command} is done already (nothing to run). */
  public static boolean done(BackupSpec spec, BackupStatus status, String command) {
    switch (command) {
      case START:
        return started(status);
      case STOP:
        return stopped(status);
      case PAUSE:
        return paused(status);
      case RESUME:
        return BackupPhase.RUNNING.equals(status.getPhase());
      case TRUNCATE:
        return truncated(spec, status);
      default:
        return false;
    }
  }

  /**
   * Why {@code command} cannot run yet: every command but the start needs the log backup started
   * (upstream requeues them until it is).
   */
  public static Optional<String> waitingFor(BackupStatus status, String command) {
    if (!START.equals(command) && !started(status)) {
      return Optional.of("the log backup to start before " + command);
    }
    return Optional.empty();
  }

  /**
   * Whether deleting {@code backup} must stop its log backup first, as upstream's clean-up: a log
   * backup BR started (it reported the start's commitTs) that is not Stopped.
   */
  public static boolean stopsOnDelete(io.tidb.operator.api.v1alpha1.backup.Backup backup) {
    BackupSpec spec = backup.getSpec();
    BackupStatus status = backup.getStatus();
    return spec != null && "log".equals(spec.getBackupMode()) && status != null
        && status.getCommitTs() != null && !status.getCommitTs().isEmpty() && !stopped(status);
  }

  /** {@code backup-<name>-<command>}, as upstream names a log backup's Jobs. */
  public static String jobName(String backup, String command) {
    return "backup-" + backup + "-" + command;
  }

  /** The BR subcommand of {@code br log <subcommand>}. */
  public static String brSubcommand(String command) {
    return command.substring("log-".length());
  }

  /** The phase once {@code command} succeeded; the truncation leaves it as it was. */
  public static String phaseAfter(String command, String current) {
    switch (command) {
      case START:
      case RESUME:
        return BackupPhase.RUNNING;
      case PAUSE:
        return PAUSED;
      case STOP:
        return STOPPED;
      default:
        return current;
    }
  }

  /** Whether logTruncateUntil is at or before what was truncated already or where the log starts. */
  static boolean truncated(BackupSpec spec, BackupStatus status) {
    Optional<Long> until = tso(spec.getLogTruncateUntil());
    if (until.isEmpty()) {
      return false;
    }
    long start = tso(status.getCommitTs()).orElse(0L);
    long success = tso(status.getLogSuccessTruncateUntil()).orElse(0L);
    return until.get() <= start || until.get() <= success;
  }

  private static Optional<Long> tso(String text) {
    return text == null || text.isEmpty() ? Optional.empty() : BackupTimestamps.toTso(text);
  }

  /**
   * Started: the backup-manager reported the start's commitTs and the controller moved the phase
   * on (the commitTs alone is there before the start's Job is seen complete), to Running or later
   * (also RetryFailed: the task was paused by an error).
   */
  private static boolean started(BackupStatus status) {
    return status.getCommitTs() != null && !status.getCommitTs().isEmpty()
        && (BackupPhase.RUNNING.equals(status.getPhase()) || PAUSED.equals(status.getPhase())
            || STOPPED.equals(status.getPhase()) || LogKernel.RETRY_THE_FAILED.equals(status.getPhase()));
  }

  private static boolean stopped(BackupStatus status) {
    return STOPPED.equals(status.getPhase());
  }

  private static boolean paused(BackupStatus status) {
    return PAUSED.equals(status.getPhase());
  }
}
