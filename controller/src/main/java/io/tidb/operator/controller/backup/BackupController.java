package io.tidb.operator.controller.backup;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.api.reconciler.Cleaner;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;
import io.javaoperatorsdk.operator.api.reconciler.PrimaryUpdateAndCacheUtils;
import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.v1alpha1.backup.Backup;
import io.tidb.operator.api.v1alpha1.backup.BackupStatus;
import io.tidb.operator.api.validation.AdmissionRules;
import io.tidb.operator.controller.runtime.Conditions;
import io.tidb.operator.controller.runtime.RuntimeServices;
import io.tidb.operator.controller.runtime.ValidatingReconciler;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;

/** Builds the {@code Backup} controller on the shared runtime. */
public final class BackupController {

  /** The controller's name: JOSDK's, and the {@code controller} tag in metrics. */
  public static final String NAME = "backup";

  private BackupController() {}

  /**
   * @param checkpoints how a running log backup's checkpoint is read from its cluster's PD, and
   *     how often ({@link LogCheckpoints#fromPd})
   */
  public static BackupReconciler create(
      BackupSettings settings,
      RuntimeServices services,
      AdmissionRules<Backup> rules,
      KubernetesClient client,
      Duration convergingRequeue,
      LogCheckpoints checkpoints) {
    KubeBackupLookups lookups = new KubeBackupLookups(client);
    return new BackupReconciler(rules, new BackupWork(settings, lookups, checkpoints), new BackupCleaner(client, lookups, settings),
        new LogBackupStopper(client, lookups, settings), services, convergingRequeue);
  }

  /**
   * The runtime's skeleton bound to {@code Backup}, with a finalizer that deletes the data of a
   * Backup whose {@code cleanPolicy} says so ({@link BackupCleaner}), after stopping a running
   * log backup ({@link LogBackupStopper}).
   */
  public static final class BackupReconciler extends ValidatingReconciler<Backup, BackupStatus>
      implements Cleaner<Backup> {

    private final BackupCleaner cleaner;
    private final LogBackupStopper stopper;
    private final RuntimeServices services;
    private final Clock clock;
    private final Duration convergingRequeue;

    BackupReconciler(AdmissionRules<Backup> rules, BackupWork work, BackupCleaner cleaner, LogBackupStopper stopper,
        RuntimeServices services, Duration convergingRequeue) {
      super(NAME, rules, BackupStatuses.BACKUP, work, services, convergingRequeue);
      this.cleaner = cleaner;
      this.stopper = stopper;
      this.services = services;
      this.clock = services.clock();
      this.convergingRequeue = convergingRequeue;
    }

    @Override
    public DeleteControl cleanup(Backup stored, Context<Backup> context) {
      return gatedCleanup(stored, context, () -> clean(stored, context));
    }

    private DeleteControl clean(Backup stored, Context<Backup> context) {
      LogBackupStopper.Outcome stop = stopper.stop(stored, clock.instant());
      Backup backup = stored;
      BackupStatus before = stored.getStatus() == null ? new BackupStatus() : stored.getStatus();
      BackupStatus stopped = ApiObjects.deepCopy(before);
      stop.status().accept(stopped);
      if (!Objects.equals(before, stopped)) {
        backup = patchStatus(stored, stopped, context);
        if (stop.event() != null && stop.event().warning()) {
          services.events().warning(stored, stop.event().reason(), stop.event().message());
        } else if (stop.event() != null) {
          services.events().normal(stored, stop.event().reason(), stop.event().message());
        }
      }
      if (stop.step() == LogBackupStopper.Step.WAIT) {
        return DeleteControl.noFinalizerRemoval().rescheduleAfter(convergingRequeue);
      }
      BackupCleaner.Outcome outcome = cleaner.clean(backup);
      if (outcome.reason() != null) {
        BackupStatus current = backup.getStatus() == null ? new BackupStatus() : backup.getStatus();
        BackupStatus next = ApiObjects.deepCopy(current);
        String status = outcome.step() == BackupCleaner.Step.RELEASE ? Conditions.TRUE : Conditions.FALSE;
        BackupStatuses.BACKUP.setConditions(next, Conditions.set(BackupStatuses.BACKUP.conditions(next),
            BackupPhase.CLEANED, status, outcome.reason(), outcome.message(), backup.getMetadata().getGeneration(),
            clock.instant()));
        if (!Objects.equals(current, next)) {
          patchStatus(backup, next, context);
          if (outcome.step() == BackupCleaner.Step.STUCK) {
            services.events().warning(backup, outcome.reason(), outcome.message());
          } else if (outcome.step() == BackupCleaner.Step.RELEASE) {
            services.events().normal(backup, outcome.reason(), outcome.message());
          }
        }
      }
      return release(outcome);
    }

    private DeleteControl release(BackupCleaner.Outcome outcome) {
      switch (outcome.step()) {
        case RELEASE:
          return DeleteControl.defaultDelete();
        case STUCK:
          return DeleteControl.noFinalizerRemoval();
        default:
          return DeleteControl.noFinalizerRemoval().rescheduleAfter(convergingRequeue);
      }
    }

    /** Applies the controller's part of {@code next} and returns the Backup as the API server has it now. */
    private static Backup patchStatus(Backup backup, BackupStatus next, Context<Backup> context) {
      Backup fresh = new Backup();
      fresh.setMetadata(new ObjectMetaBuilder().withName(backup.getMetadata().getName())
          .withNamespace(backup.getMetadata().getNamespace()).build());
      fresh.setStatus(BackupStatuses.controllerPart(next));
      return PrimaryUpdateAndCacheUtils.ssaPatchStatusAndCacheResource(backup, fresh, context);
    }
  }
}
