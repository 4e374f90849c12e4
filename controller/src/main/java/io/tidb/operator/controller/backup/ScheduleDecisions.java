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

  /**
   * One snapshot Backup of the schedule as observed: its name, when it was scheduled, its phase,
   * and its {@code status.commitTs} as a TSO (null while it has none).
   */
  public record Observed(String name, Instant scheduledAt, String phase, Long commitTs) {
    public Observed(String name, Instant scheduledAt, String phase) {
      this(name, scheduledAt, phase, null);
    }

    boolean inFlight() {
      return phase == null || phase.isEmpty() || BackupPhase.IN_FLIGHT.contains(phase);
    }

    boolean complete() {
      return BackupPhase.COMPLETE.equals(phase) && commitTs != null;
    }

    /** Upstream's reading of the commit ts: none counts as 0. */
    long commitTsOrZero() {
      return commitTs == null ? 0L : commitTs;
    }
  }

  /**
   * The schedule's log backup as observed, TSOs: where its log starts ({@code status.commitTs}),
   * how far it is known to reach ({@code status.logCheckpointTs}), and the truncation its spec
   * asks for ({@code spec.logTruncateUntil}); each null when unset.
   */
  public record LogObserved(String name, Long startTs, Long checkpointTs, Long truncateUntil) {}

  /**
   * What retention does: the snapshot Backups it deletes (oldest first), and the TSO it sets the
   * log backup's {@code logTruncateUntil} to, when it truncates the log.
   */
  public record Retention(List<Observed> expired, Optional<Long> truncateUntil) {}

  /** What to do about the schedule's log backup when the status records none. */
  public enum LogBackupStep {
    /** No log backup template, or one is recorded: nothing. */
    NONE,
    /** Create {@code log-<schedule>}. */
    CREATE,
    /** {@code log-<schedule>} is this schedule's (created before a restart): record it. */
    ADOPT,
    /** {@code log-<schedule>} exists and is not this schedule's: report, create nothing. */
    NAME_TAKEN
  }

  private ScheduleDecisions() {}

  /** The Backup's name for a scheduled time, as upstream: {@code <schedule>-<2006-01-02t15-04-05>}. */
  public static String backupName(String schedule, Instant at) {
    return schedule + "-" + NAME_TIME.format(at);
  }

  /** The log backup's name, as upstream: {@code log-<schedule>}. */
  public static String logBackupName(String schedule) {
    return "log-" + schedule;
  }

  /** The log backup's folder under the template's prefix, as upstream: {@code log-<start time>}. */
  public static String logBackupFolder(Instant start) {
    return "log-" + NAME_TIME.format(start);
  }

  /**
   * Whether the log backup is to be created, as upstream once: when the schedule has a log
   * template and the status records no log backup. A Backup of that name already there is
   * adopted when it is this schedule's (so a restart between creating it and recording it creates
   * nothing twice), else left alone.
   *
   * @param existing whether a Backup named {@code log-<schedule>} exists, and if so whether the
   *     schedule is its controller (empty: none)
   */
  public static LogBackupStep logBackupStep(boolean hasTemplate, String recorded, Optional<Boolean> existing) {
    if (!hasTemplate || recorded != null) {
      return LogBackupStep.NONE;
    }
    if (existing.isEmpty()) {
      return LogBackupStep.CREATE;
    }
    return existing.get() ? LogBackupStep.ADOPT : LogBackupStep.NAME_TAKEN;
  }

  /**
   * Retention with the log backup, as upstream: without one, {@link #expired}. With one, {@code
   * maxReservedTime} keeps everything a point-in-time restore to the last {@code maxReservedTime}
   * needs: the expiry point is the latest of the snapshots' commit ts and the log's checkpoint,
   * minus {@code maxReservedTime}; the finished snapshots at or before it are deleted except the
   * newest complete one (the restore's starting point), and only when one is deleted the log is
   * truncated to that kept snapshot's commit ts. {@code maxBackups} keeps the newest N snapshots
   * and, when it deletes one, truncates the log to the commit ts of the oldest complete snapshot
   * kept. The log is truncated only to a point inside it (after its start, at or before its
   * checkpoint) and past what its spec already asks for; a running snapshot is never deleted.
   */
  public static Retention retention(BackupScheduleSpec spec, List<Observed> snapshots, Optional<LogObserved> log,
      Instant now) {
    if (log.isEmpty()) {
      return new Retention(expired(spec, snapshots, now), Optional.empty());
    }
    LogObserved l = log.get();
    List<Observed> expired;
    Optional<Observed> base;
    if (spec.getMaxBackups() != null && spec.getMaxBackups() > 0) {
      expired = expired(spec, snapshots, now);
      base = snapshots.stream().filter(b -> !expired.contains(b)).filter(Observed::complete)
          .min(Comparator.comparing(Observed::commitTs));
    } else if (spec.getMaxReservedTime() != null) {
      long reserved = GoDuration.parse(spec.getMaxReservedTime()).toMillis() << 18;
      List<Observed> finished = snapshots.stream().filter(b -> !b.inFlight()).toList();
      long latest = Math.max(l.checkpointTs() == null ? 0L : l.checkpointTs(),
          finished.stream().mapToLong(Observed::commitTsOrZero).max().orElse(0L));
      long expiry = latest - reserved;
      List<Observed> atOrBefore = new ArrayList<>(finished.stream().filter(b -> b.commitTsOrZero() <= expiry).toList());
      atOrBefore.sort(Comparator.comparing(Observed::commitTsOrZero).thenComparing(Observed::scheduledAt));
      base = atOrBefore.stream().filter(Observed::complete).reduce((a, b) -> b);
      expired = atOrBefore.stream().filter(b -> base.isEmpty() || !b.equals(base.get()))
          .sorted(Comparator.comparing(Observed::scheduledAt)).toList();
    } else {
      return new Retention(List.of(), Optional.empty());
    }
    if (expired.isEmpty() || base.isEmpty()) {
      return new Retention(expired, Optional.empty());
    }
    long until = base.get().commitTs();
    boolean insideTheLog = l.startTs() != null && l.checkpointTs() != null && until > l.startTs()
        && until <= l.checkpointTs();
    boolean further = l.truncateUntil() == null || until > l.truncateUntil();
    return new Retention(expired, insideTheLog && further ? Optional.of(until) : Optional.empty());
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
