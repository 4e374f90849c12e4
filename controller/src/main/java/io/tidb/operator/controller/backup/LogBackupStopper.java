package io.tidb.operator.controller.backup;

import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.tidb.operator.api.v1alpha1.backup.Backup;
import io.tidb.operator.api.v1alpha1.backup.BackupStatus;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.controller.runtime.Conditions;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * What deleting a log backup ({@code backupMode: log}) does first, as upstream's clean-up: a log
 * backup that was started and is not Stopped is stopped, by the Job {@code stop-<name>} running
 * {@code br log stop --task-name=<name>} against the cluster, before its data is cleaned and the
 * Backup released; the Backup's status says so meanwhile ({@code logSubCommandStatuses[log-stop]}
 * Scheduled, condition Scheduled with command {@code log-stop}). When the Job completes the phase
 * is Stopped; when it fails the clean-up goes on (as upstream), with condition Failed and a
 * warning saying the task may still run in the cluster.
 */
final class LogBackupStopper {

  /** Whether the clean-up may go on. */
  enum Step { GO_ON, WAIT }

  /** An Event to send when the status changed. */
  record Event(boolean warning, String reason, String message) {}

  /** The step, what to write in the status, and the Event that goes with that change. */
  record Outcome(Step step, Consumer<BackupStatus> status, Event event) {
    static final Outcome NOTHING = new Outcome(Step.GO_ON, s -> { }, null);
  }

  private final KubernetesClient client;
  private final BackupLookups lookups;
  private final BackupSettings settings;

  LogBackupStopper(KubernetesClient client, BackupLookups lookups, BackupSettings settings) {
    this.client = client;
    this.lookups = lookups;
    this.settings = settings;
  }

  /** {@code stop-<name>}, as upstream names it. */
  static String jobName(Backup b) {
    return "stop-" + b.getMetadata().getName();
  }

  Outcome stop(Backup backup, Instant now) {
    if (!LogBackupCommands.stopsOnDelete(backup)) {
      return Outcome.NOTHING;
    }
    String ns = backup.getMetadata().getNamespace();
    String name = jobName(backup);
    String task = backup.getMetadata().getName();
    Long generation = backup.getMetadata().getGeneration();
    var jobs = client.batch().v1().jobs().inNamespace(ns);
    Job job = jobs.withName(name).get();
    if (job == null) {
      String clusterNs = BackupWork.clusterNamespace(backup, backup.getSpec());
      String clusterName = backup.getSpec().getBr().getCluster();
      Optional<TidbCluster> cluster = lookups.cluster(clusterNs, clusterName);
      if (cluster.isEmpty()) {
        String why = "TidbCluster " + clusterNs + "/" + clusterName + " not found: log backup task " + task
            + " cannot be stopped before the Backup is released; remove the finalizer to release it anyway";
        return new Outcome(Step.WAIT, s -> {
          LogBackupWork.subStatus(s, LogBackupCommands.STOP).setPhase(BackupPhase.SCHEDULED);
          BackupStatuses.setCondition(s, BackupPhase.SCHEDULED, Conditions.FALSE, BackupWork.REASON_CLUSTER, why,
              LogBackupCommands.STOP, generation, now);
        }, new Event(true, BackupWork.REASON_CLUSTER, why));
      }
      jobs.resource(LogBackupWork.commandJob(backup, cluster.get(), LogBackupCommands.STOP, name,
          LogBackupWork.serviceAccountName(backup), settings)).create();
      String message = "Job " + name + " runs br log stop of task " + task + " before the Backup is released";
      return new Outcome(Step.WAIT, s -> {
        LogBackupWork.subStatus(s, LogBackupCommands.STOP).setPhase(BackupPhase.SCHEDULED);
        BackupStatuses.setCondition(s, BackupPhase.SCHEDULED, Conditions.TRUE, "StoppingLogBackup", message,
            LogBackupCommands.STOP, generation, now);
      }, new Event(false, "StoppingLogBackup", message));
    }
    if (JobVerdicts.hasTrue(job, "Complete")) {
      String message = "br log stop of task " + task + " succeeded (Job " + name + ") before the Backup is released";
      return new Outcome(Step.GO_ON, s -> {
        s.setPhase(LogBackupCommands.STOPPED);
        LogBackupWork.subStatus(s, LogBackupCommands.STOP).setPhase(BackupPhase.COMPLETE);
        BackupStatuses.setCondition(s, LogBackupCommands.STOPPED, Conditions.TRUE, JobVerdicts.REASON_COMPLETE, message,
            LogBackupCommands.STOP, generation, now);
      }, new Event(false, "LogBackupStopped", message));
    }
    if (JobVerdicts.hasTrue(job, "Failed")) {
      String message = "log-stop: " + lookups.failureMessage(ns, name).orElse("Job " + name + " failed")
          + "; the Backup is released anyway (as upstream) and log backup task " + task
          + " may still run in the cluster: stop it with br log stop --task-name=" + task;
      return new Outcome(Step.GO_ON, s -> {
        LogBackupWork.subStatus(s, LogBackupCommands.STOP).setPhase(BackupPhase.FAILED);
        BackupStatuses.setCondition(s, BackupPhase.FAILED, Conditions.TRUE, JobVerdicts.REASON_FAILED, message,
            LogBackupCommands.STOP, generation, now);
      }, new Event(true, "LogBackupStopFailed", message));
    }
    return new Outcome(Step.WAIT, s -> { }, null);
  }
}
