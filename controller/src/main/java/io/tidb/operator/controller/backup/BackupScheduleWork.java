package io.tidb.operator.controller.backup;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.v1alpha1.backup.Backup;
import io.tidb.operator.api.v1alpha1.backup.BackupSchedule;
import io.tidb.operator.api.v1alpha1.backup.BackupScheduleSpec;
import io.tidb.operator.api.v1alpha1.backup.BackupScheduleStatus;
import io.tidb.operator.api.v1alpha1.backup.BackupSpec;
import io.tidb.operator.api.validation.backup.ScheduledBackups;
import io.tidb.operator.controller.runtime.OwnedEventSources;
import io.tidb.operator.controller.runtime.ReconcileWork;
import io.tidb.operator.controller.runtime.ResourceContext;
import io.tidb.operator.controller.runtime.WorkOutcome;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One reconcile of a valid BackupSchedule ({@link ScheduleDecisions}). Paused: nothing, as
 * upstream. Otherwise retention first (deleting the oldest Backup CRs; each Backup's clean policy
 * then decides what happens to its data), then, when a backup is due and the previous one no
 * longer runs, the Backup {@code <schedule>-<time>} from the template, in a folder of its own
 * under the template's prefix; when retention deleted every Backup, {@code lastBackup} and {@code
 * lastBackupTime} are reset and {@code allBackupCleanTime} says when, as upstream. The name comes
 * from the scheduled time, so a restart after creating
 * it but before recording it creates nothing twice. Time comes from the runtime's clock.
 */
public final class BackupScheduleWork implements ReconcileWork<BackupSchedule, BackupScheduleStatus> {

  /** When a scheduled Backup was due, on the Backup (retention reads it, not the API's clock). */
  public static final String SCHEDULED_AT = "tidb.pingcap.com/backup-scheduled-at";

  private final KubernetesClient client;

  public BackupScheduleWork(KubernetesClient client) {
    this.client = client;
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
    List<ScheduleDecisions.Observed> backups = observed(ctx);
    List<ScheduleDecisions.Observed> expired = ScheduleDecisions.expired(spec, backups, now);
    for (ScheduleDecisions.Observed old : expired) {
      client.resources(Backup.class).inNamespace(ctx.namespace()).withName(old.name()).delete();
      ctx.events().normal(ctx.stored(), "BackupDeleted", "retention deleted Backup " + old.name()
          + " scheduled at " + old.scheduledAt());
    }
    BackupScheduleStatus status = ctx.status();
    if (ScheduleDecisions.deletesAll(backups, expired)) {
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
    create(ctx, name, due.get());
    status.setLastBackup(name);
    status.setLastBackupTime(due.get().toString());
    status.setAllBackupCleanTime(null);
    return WorkOutcome.converging("schedule", "Backup " + name + " to finish");
  }

  private void create(ResourceContext<BackupSchedule, BackupScheduleStatus> ctx, String name, Instant at) {
    BackupSpec spec = ScheduledBackups.effectiveTemplate(ctx.stored().getSpec());
    if (spec.getS3() != null) {
      spec.getS3().setPrefix(join(spec.getS3().getPrefix(), name));
    } else if (spec.getGcs() != null) {
      spec.getGcs().setPrefix(join(spec.getGcs().getPrefix(), name));
    } else if (spec.getAzblob() != null) {
      spec.getAzblob().setPrefix(join(spec.getAzblob().getPrefix(), name));
    } else if (spec.getLocal() != null) {
      spec.getLocal().setPrefix(join(spec.getLocal().getPrefix(), name));
    }
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
      ctx.events().normal(ctx.stored(), "BackupCreated", "created Backup " + name + " scheduled at " + at);
    } catch (KubernetesClientException e) {
      if (e.getCode() != 409) {
        throw e;
      }
    }
  }

  private List<ScheduleDecisions.Observed> observed(ResourceContext<BackupSchedule, BackupScheduleStatus> ctx) {
    return client.resources(Backup.class).inNamespace(ctx.namespace())
        .withLabel(BackupJob.BACKUP_SCHEDULE_LABEL, ctx.name()).list().getItems().stream()
        .filter(b -> BackupWork.ownedBy(b, ctx.stored()) && b.getMetadata().getDeletionTimestamp() == null)
        .map(b -> new ScheduleDecisions.Observed(b.getMetadata().getName(), scheduledAt(b),
            b.getStatus() == null ? null : b.getStatus().getPhase()))
        .toList();
  }

  private static Instant scheduledAt(Backup b) {
    String at = b.getMetadata().getAnnotations() == null ? null : b.getMetadata().getAnnotations().get(SCHEDULED_AT);
    return Instant.parse(at != null ? at : b.getMetadata().getCreationTimestamp());
  }

  private static String join(String prefix, String name) {
    return prefix == null || prefix.isEmpty() ? name : prefix.replaceAll("/+$", "") + "/" + name;
  }
}
