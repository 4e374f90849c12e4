package io.tidb.operator.controller.backup;

import io.tidb.operator.api.GoDuration;
import io.tidb.operator.api.v1alpha1.backup.BackupScheduleSpec;
import io.tidb.operator.api.validation.backup.CronSchedules;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Pure decisions of the BackupSchedule controller, from what it observes and the time: whether a
 * backup is due (the latest cron time after the last scheduled one, as upstream: missed times are
 * not caught up one by one), whether the previous backup still runs, and which Backups retention
 * deletes ({@code maxBackups} wins over {@code maxReservedTime}; a running backup is never deleted).
 */
public final class ScheduleDecisions {

  /** Upstream's time format in the names of scheduled Backups. */
  static final DateTimeFormatter NAME_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd't'HH-mm-ss").withZone(ZoneOffset.UTC);

  /** One Backup of the schedule as observed: its name, when it was scheduled, its phase. */
  public record Observed(String name, Instant scheduledAt, String phase) {
    boolean inFlight() {
      return phase == null || phase.isEmpty() || BackupPhase.IN_FLIGHT.contains(phase);
    }
  }

  private ScheduleDecisions() {}

  /** The Backup's name for a scheduled time, as upstream: {@code <schedule>-<2006-01-02t15-04-05>}. */
  public static String backupName(String schedule, Instant at) {
    return schedule + "-" + NAME_TIME.format(at);
  }

  /**
   * The scheduled time of the backup due now: the latest cron time in {@code (since, now]}; empty
   * when there is none.
   *
   * @param since the last backup's scheduled time, else the schedule's creation
   */
  public static Optional<Instant> due(String cron, Instant since, Instant now) {
    Optional<ZonedDateTime> last = CronSchedules.lastAtOrBefore(cron, now.atZone(ZoneOffset.UTC));
    return last.map(ZonedDateTime::toInstant).filter(t -> t.isAfter(since));
  }

  /**
   * Where the search for the next due time starts, as upstream: the last backup's scheduled time,
   * else when retention last deleted every Backup ({@code allBackupCleanTime}), else the
   * schedule's creation.
   */
  public static Instant since(String lastBackupTime, String allBackupCleanTime, String creationTimestamp) {
    if (lastBackupTime != null) {
      return Instant.parse(lastBackupTime);
    }
    return Instant.parse(allBackupCleanTime != null ? allBackupCleanTime : creationTimestamp);
  }

  /** Whether retention deletes every Backup of the schedule (upstream then resets lastBackup*). */
  public static boolean deletesAll(List<Observed> backups, List<Observed> expired) {
    return !expired.isEmpty() && expired.size() == backups.size();
  }

  /** When the schedule fires next after {@code now}. */
  public static Optional<Instant> next(String cron, Instant now) {
    return CronSchedules.nextAfter(cron, now.atZone(ZoneOffset.UTC)).map(ZonedDateTime::toInstant);
  }

  /** The previous backup still running, which blocks a new one. */
  public static Optional<Observed> running(List<Observed> backups, String lastBackup) {
    return backups.stream().filter(b -> b.name().equals(lastBackup) && b.inFlight()).findFirst();
  }

  /** The Backups retention deletes, oldest first. */
  public static List<Observed> expired(BackupScheduleSpec spec, List<Observed> backups, Instant now) {
    List<Observed> newestFirst = new ArrayList<>(backups);
    newestFirst.sort(Comparator.comparing(Observed::scheduledAt).reversed());
    List<Observed> out = new ArrayList<>();
    if (spec.getMaxBackups() != null && spec.getMaxBackups() > 0) {
      for (int i = spec.getMaxBackups(); i < newestFirst.size(); i++) {
        out.add(newestFirst.get(i));
      }
    } else if (spec.getMaxReservedTime() != null) {
      Duration keep = GoDuration.parse(spec.getMaxReservedTime());
      Instant cutoff = now.minus(keep);
      newestFirst.stream().filter(b -> b.scheduledAt().isBefore(cutoff)).forEach(out::add);
    }
    List<Observed> deletable = new ArrayList<>(out.stream().filter(b -> !b.inFlight()).toList());
    deletable.sort(Comparator.comparing(Observed::scheduledAt));
    return deletable;
  }
}
