package io.tidb.operator.controller.backup;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.UnreadableResources;
import io.tidb.operator.api.v1alpha1.backup.Backup;
import io.tidb.operator.api.v1alpha1.backup.BackupSchedule;
import io.tidb.operator.api.v1alpha1.backup.BackupScheduleSpec;
import io.tidb.operator.api.v1alpha1.backup.BackupScheduleStatus;
import io.tidb.operator.api.v1alpha1.backup.BackupSpec;
import io.tidb.operator.api.validation.backup.BackupTimestamps;
import io.tidb.operator.api.validation.backup.ScheduledBackups;
import io.tidb.operator.controller.runtime.MergePatch;
import io.tidb.operator.controller.runtime.OwnedEventSources;
import io.tidb.operator.controller.runtime.ReconcileWork;
import io.tidb.operator.controller.runtime.ResourceContext;
import io.tidb.operator.controller.runtime.WorkOutcome;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One reconcile of a valid BackupSchedule ({@link ScheduleDecisions}). Paused: nothing. Otherwise,
 * with a {@code logBackupTemplate}, the log backup {@code log-<schedule>} once, as upstream; then
 * retention (with a log backup, upstream's: what a point-in-time restore needs is kept, and the
 * log truncated up to the oldest snapshot kept; each deleted Backup's clean policy
 * then decides what happens to its data), then, when a backup is due and the previous one no
 * longer runs, the Backup {@code <schedule>-<time>} from the template, in a folder of its own
 * under the template's prefix; when retention deleted every Backup, {@code lastBackup} and {@code
 * lastBackupTime} are reset and {@code allBackupCleanTime} says when, as upstream. The name comes
 * from the scheduled time, so a restart after creating
 * it but before recording it creates nothing twice. Time comes from the runtime's clock.
 */
public final class BackupScheduleWork implements ReconcileWork<BackupSchedule, BackupScheduleStatus> {

  /**
   * When a scheduled Backup was due (for the log backup: when it was started), on the Backup
   * (retention reads it, not the API's clock).
   */
  public static final String SCHEDULED_AT = "tidb.pingcap.com/backup-scheduled-at";

  private final KubernetesClient client;

  public BackupScheduleWork(KubernetesClient client) {
    this.client = client;
  }

  /** Started on the first BackupSchedule: a namespace without one lists and watches none of them. */
  @Override
  public boolean ownedInformersOnFirstResource() {
    return true;
  }

  @Override
  public List<EventSource<?, BackupSchedule>> eventSources(EventSourceContext<BackupSchedule> context) {
    return OwnedEventSources.owned(context, List.<Class<? extends HasMetadata>>of(Backup.class));
  }

  @Override
  public WorkOutcome work(ResourceContext<BackupSchedule, BackupScheduleStatus> ctx) {
    BackupSchedule schedule = ctx.resource();
    BackupScheduleSpec spec = schedule.getSpec();
    if (Boolean.TRUE.equals(spec.getPause())) {
      return WorkOutcome.paused();
    }
    Instant now = ctx.now();
    BackupScheduleStatus status = ctx.status();
    logBackup(ctx, now);
    List<Backup> all = owned(ctx);
    List<ScheduleDecisions.Observed> backups = all.stream().filter(b -> !isLog(b)).map(BackupScheduleWork::observe).toList();
    Optional<Backup> log = logBackupOf(all, status.getLogBackup());
    ScheduleDecisions.Retention retention = ScheduleDecisions.retention(spec, backups,
        log.map(BackupScheduleWork::observeLog), now);
    for (ScheduleDecisions.Observed old : retention.expired()) {
      client.resources(Backup.class).inNamespace(ctx.namespace()).withName(old.name()).delete();
      ctx.events().normal(ctx.stored(), "BackupDeleted", "retention deleted Backup " + old.name()
          + " scheduled at " + old.scheduledAt());
    }
    retention.truncateUntil().ifPresent(tso -> truncate(ctx, log.get(), tso));
    if (ScheduleDecisions.deletesAll(backups, retention.expired())) {
      status.setLastBackup(null);
      status.setLastBackupTime(null);
      status.setAllBackupCleanTime(now.toString());
    }
    Optional<ScheduleDecisions.Observed> running = ScheduleDecisions.running(backups, status.getLastBackup());
    Instant since = ScheduleDecisions.since(status.getLastBackupTime(), status.getAllBackupCleanTime(),
        schedule.getMetadata().getCreationTimestamp());
    Optional<Instant> due = ScheduleDecisions.due(spec.getSchedule(), since, now);
    if (due.isEmpty()) {
      return WorkOutcome.converging("schedule", "the next backup at "
          + ScheduleDecisions.next(spec.getSchedule(), now).map(Instant::toString).orElse("never"));
    }
    if (running.isPresent()) {
      return WorkOutcome.converging("schedule", "Backup " + running.get().name() + " to finish before the next one");
    }
    String name = ScheduleDecisions.backupName(ctx.name(), due.get());
    BackupSpec backupSpec = ScheduledBackups.effectiveTemplate(ctx.stored().getSpec());
    intoFolder(backupSpec, name);
    create(ctx, name, backupSpec, due.get(), "BackupCreated", "created Backup " + name + " scheduled at " + due.get());
    status.setLastBackup(name);
    status.setLastBackupTime(due.get().toString());
    status.setAllBackupCleanTime(null);
    return WorkOutcome.converging("schedule", "Backup " + name + " to finish");
  }

  /**
   * The log backup, as upstream: created once, {@code log-<schedule>} in the folder {@code
   * log-<start>} under the log template's prefix, and recorded in {@code status.logBackup} and
   * {@code logBackupStartTs}. One this schedule created before a restart is recorded instead; a
   * Backup of that name that is not this schedule's is left alone and reported.
   */
  private void logBackup(ResourceContext<BackupSchedule, BackupScheduleStatus> ctx, Instant now) {
    BackupScheduleStatus status = ctx.status();
    boolean hasTemplate = ctx.stored().getSpec().getLogBackupTemplate() != null;
    if (!hasTemplate || status.getLogBackup() != null) {
      return;
    }
    String name = ScheduleDecisions.logBackupName(ctx.name());
    Backup existing = client.resources(Backup.class).inNamespace(ctx.namespace()).withName(name).get();
    switch (ScheduleDecisions.logBackupStep(true, null,
        Optional.ofNullable(existing).map(b -> BackupWork.ownedBy(b, ctx.stored())))) {
      case CREATE -> {
        Instant start = now.truncatedTo(ChronoUnit.SECONDS);
        BackupSpec spec = ScheduledBackups.effectiveLogTemplate(ctx.stored().getSpec());
        intoFolder(spec, ScheduleDecisions.logBackupFolder(start));
        create(ctx, name, spec, start, "LogBackupCreated", "created log backup " + name + " starting at " + start);
        status.setLogBackup(name);
        status.setLogBackupStartTs(start.toString());
      }
      case ADOPT -> {
        status.setLogBackup(name);
        status.setLogBackupStartTs(scheduledAt(existing).toString());
      }
      case NAME_TAKEN -> ctx.events().warning(ctx.stored(), "LogBackupNameTaken", "Backup " + name
          + " exists and is not this schedule's: no log backup is created while it is there");
      case NONE -> {
        // nothing to do
      }
    }
  }

  /** Asks the log backup to truncate its log up to {@code tso} (its Backup controller runs it). */
  private void truncate(ResourceContext<BackupSchedule, BackupScheduleStatus> ctx, Backup log, long tso) {
    String until = Long.toUnsignedString(tso);
    MergePatch.patch(client, Backup.class, ctx.namespace(), log.getMetadata().getName(),
        "{\"spec\":{\"logTruncateUntil\":\"" + until + "\"}}");
    ctx.events().normal(ctx.stored(), "LogBackupTruncated", "retention set logTruncateUntil of log backup "
        + log.getMetadata().getName() + " to " + until + " (" + BackupTimestamps.instantOf(tso)
        + "), the commit ts of the oldest snapshot backup kept");
  }

  private void create(ResourceContext<BackupSchedule, BackupScheduleStatus> ctx, String name, BackupSpec spec,
      Instant at, String reason, String message) {
    Backup backup = new Backup();
    Map<String, String> labels = new LinkedHashMap<>();
    labels.put(OwnedEventSources.MANAGED_BY, OwnedEventSources.MANAGED_BY_VALUE);
    labels.put(BackupJob.BACKUP_SCHEDULE_LABEL, ctx.name());
    backup.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder()
        .withName(name).withNamespace(ctx.namespace()).withLabels(labels)
        .addToAnnotations(SCHEDULED_AT, at.toString())
        .withOwnerReferences(BackupJob.ownerRef(ctx.stored())).build());
    backup.setSpec(ApiObjects.deepCopy(spec));
    try {
      client.resource(backup).create();
      ctx.events().normal(ctx.stored(), reason, message);
    } catch (KubernetesClientException e) {
      if (e.getCode() != 409) {
        throw e;
      }
    }
  }

  /** The template's prefix plus {@code folder}, in whichever storage it has. */
  private static void intoFolder(BackupSpec spec, String folder) {
    if (spec.getS3() != null) {
      spec.getS3().setPrefix(join(spec.getS3().getPrefix(), folder));
    } else if (spec.getGcs() != null) {
      spec.getGcs().setPrefix(join(spec.getGcs().getPrefix(), folder));
    } else if (spec.getAzblob() != null) {
      spec.getAzblob().setPrefix(join(spec.getAzblob().getPrefix(), folder));
    } else if (spec.getLocal() != null) {
      spec.getLocal().setPrefix(join(spec.getLocal().getPrefix(), folder));
    }
  }

  /**
   * The schedule's Backups from the API server (not a cache), without those being deleted, and
   * without those the model cannot read ({@link UnreadableResources}): retention does not count a
   * backup whose spec and status it does not know, so it takes no place of a readable one kept to
   * maxBackups (and, its phase unknown, it would never be deleted).
   */
  private List<Backup> owned(ResourceContext<BackupSchedule, BackupScheduleStatus> ctx) {
    return client.resources(Backup.class).inNamespace(ctx.namespace())
        .withLabel(BackupJob.BACKUP_SCHEDULE_LABEL, ctx.name()).list().getItems().stream()
        .filter(b -> BackupWork.ownedBy(b, ctx.stored()) && b.getMetadata().getDeletionTimestamp() == null)
        .filter(b -> UnreadableResources.reason(b).isEmpty())
        .toList();
  }

  /** Upstream tells the log backup from the snapshots by its mode. */
  private static boolean isLog(Backup b) {
    return b.getSpec() != null && "log".equals(b.getSpec().getBackupMode());
  }

  /** The log backup retention works with: the one the status records, else any of the schedule's. */
  private static Optional<Backup> logBackupOf(List<Backup> all, String recorded) {
    List<Backup> logs = all.stream().filter(BackupScheduleWork::isLog).toList();
    return logs.stream().filter(b -> b.getMetadata().getName().equals(recorded)).findFirst()
        .or(() -> logs.stream().findFirst());
  }

  private static ScheduleDecisions.Observed observe(Backup b) {
    return new ScheduleDecisions.Observed(b.getMetadata().getName(), scheduledAt(b),
        b.getStatus() == null ? null : b.getStatus().getPhase(),
        b.getStatus() == null ? null : tso(b.getStatus().getCommitTs()));
  }

  private static ScheduleDecisions.LogObserved observeLog(Backup b) {
    return new ScheduleDecisions.LogObserved(b.getMetadata().getName(),
        b.getStatus() == null ? null : tso(b.getStatus().getCommitTs()),
        b.getStatus() == null ? null : tso(b.getStatus().getLogCheckpointTs()),
        tso(b.getSpec().getLogTruncateUntil()));
  }

  private static Long tso(String text) {
    return text == null || text.isBlank() ? null : BackupTimestamps.toTso(text).orElse(null);
  }

  private static Instant scheduledAt(Backup b) {
    String at = b.getMetadata().getAnnotations() == null ? null : b.getMetadata().getAnnotations().get(SCHEDULED_AT);
    return Instant.parse(at != null ? at : b.getMetadata().getCreationTimestamp());
  }

  private static String join(String prefix, String name) {
    return prefix == null || prefix.isEmpty() ? name : prefix.replaceAll("/+$", "") + "/" + name;
  }
}
