package io.tidb.operator.controller.backup;

import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.tidb.operator.api.v1alpha1.backup.Backup;
import io.tidb.operator.api.v1alpha1.backup.BackupSpec;
import io.tidb.operator.api.v1alpha1.backup.StorageProvider;
import io.tidb.operator.api.v1alpha1.backup.StorageProviders;
import io.tidb.operator.controller.backup.manager.BackupManagerMain;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What deleting a Backup does to its data, by {@code cleanPolicy}: Retain keeps it; Delete (and
 * OnFailure, for a Failed backup) runs the Job {@code clean-<name>} ({@code backup-manager clean},
 * which deletes exactly the objects under the Backup's prefix) once the backup's own Job is gone,
 * and releases the Backup only when that Job completed. A failed clean Job keeps the Backup, with
 * the Job's last line (what was deleted, what is left) in condition {@code Cleaned}; deleting the
 * clean Job retries, removing the finalizer by hand forces the release.
 */
public final class BackupCleaner {

  /** What to do next. */
  public enum Step { RELEASE, WAIT, STUCK }

  /** The step, and the Cleaned condition's reason and message when there is one. */
  public record Outcome(Step step, String reason, String message) {}

  private final KubernetesClient client;
  private final BackupLookups lookups;
  private final BackupSettings settings;

  public BackupCleaner(KubernetesClient client, BackupLookups lookups, BackupSettings settings) {
    this.client = client;
    this.lookups = lookups;
    this.settings = settings;
  }

  /** {@code clean-<name>}. */
  public static String jobName(Backup b) {
    return "clean-" + b.getMetadata().getName();
  }

  /** Whether deleting {@code backup} must delete its data first. Pure. */
  public static boolean needsClean(Backup backup) {
    BackupSpec spec = backup.getSpec();
    if (spec == null || backup.getStatus() == null || backup.getStatus().getBackupPath() == null) {
      return false;
    }
    String policy = spec.getCleanPolicy() == null ? "Retain" : spec.getCleanPolicy();
    return "Delete".equals(policy)
        || ("OnFailure".equals(policy) && BackupPhase.FAILED.equals(backup.getStatus().getPhase()));
  }

  /** The clean-up's args for the backup-manager. Pure. */
  public static List<String> args(Backup backup) {
    StorageProvider storage = StorageProviders.of(backup.getSpec());
    List<String> args = new ArrayList<>(List.of(BackupManagerMain.MODE, "clean", "--storage", StorageUrls.url(storage)));
    if (storage.getS3() != null) {
      if (storage.getS3().getEndpoint() != null) {
        args.add("--s3.endpoint=" + storage.getS3().getEndpoint());
      }
      if (storage.getS3().getRegion() != null) {
        args.add("--s3.region=" + storage.getS3().getRegion());
      }
      if (storage.getS3().getForcePathStyle() != null) {
        args.add("--s3.force-path-style=" + storage.getS3().getForcePathStyle());
      }
    }
    if (storage.getGcs() != null) {
      if (storage.getGcs().getProjectId() != null) {
        args.add("--gcs.project-id=" + storage.getGcs().getProjectId());
      }
      if (storage.getGcs().getSecretName() != null) {
        args.add("--gcs.credentials-file=" + BackupJob.GCS_CREDENTIALS_DIR + "/credentials");
      }
    }
    if (storage.getAzblob() != null && storage.getAzblob().getStorageAccount() != null) {
      args.add("--azblob.account-name=" + storage.getAzblob().getStorageAccount());
    }
    if (storage.getAzblob() != null && storage.getAzblob().getSasToken() != null
        && !storage.getAzblob().getSasToken().isEmpty()) {
      args.add("--azblob.sas-token=" + storage.getAzblob().getSasToken());
    }
    if (backup.getSpec().getCleanOption() != null) {
      if (backup.getSpec().getCleanOption().getRetryCount() != null) {
        args.add("--retries=" + backup.getSpec().getCleanOption().getRetryCount());
      }
      if (Boolean.TRUE.equals(backup.getSpec().getCleanOption().getDisableBatchConcurrency())) {
        args.add("--single");
      }
      if (backup.getSpec().getCleanOption().getPageSize() != null) {
        args.add("--page-size=" + backup.getSpec().getCleanOption().getPageSize());
      }
    }
    return args;
  }

  /**
   * The Jobs that write the backup's data, to be gone before it is deleted: {@code backup-<name>},
   * or for a log backup every command's {@code backup-<name>-<command>}, as upstream. Pure.
   */
  static List<String> backupJobNames(Backup backup) {
    if (!"log".equals(backup.getSpec().getBackupMode())) {
      return List.of(BackupWork.jobName(backup));
    }
    return java.util.stream.Stream.of(LogBackupCommands.START, LogBackupCommands.STOP, LogBackupCommands.PAUSE,
        LogBackupCommands.RESUME, LogBackupCommands.TRUNCATE)
        .map(c -> LogBackupCommands.jobName(backup.getMetadata().getName(), c)).toList();
  }

  public Outcome clean(Backup backup) {
    if (!needsClean(backup)) {
      return new Outcome(Step.RELEASE, null, null);
    }
    String ns = backup.getMetadata().getNamespace();
    var jobs = client.batch().v1().jobs().inNamespace(ns);
    for (String jobName : backupJobNames(backup)) {
      Job running = jobs.withName(jobName).get();
      if (running != null && !JobVerdicts.hasTrue(running, "Complete") && !JobVerdicts.hasTrue(running, "Failed")) {
        jobs.withName(jobName).withPropagationPolicy(io.fabric8.kubernetes.api.model.DeletionPropagation.BACKGROUND).delete();
        return new Outcome(Step.WAIT, "WaitingForBackupJob", "stopping Job " + jobName + " before deleting the data");
      }
    }
    String name = jobName(backup);
    Job clean = jobs.withName(name).get();
    if (clean == null) {
      String sa = backup.getSpec().getServiceAccount() != null ? backup.getSpec().getServiceAccount() : null;
      Job job = BackupJob.build(new BackupJob.Work(backup, name, "clean", Map.of(BackupJob.BACKUP_LABEL,
          backup.getMetadata().getName()), sa, JobPod.of(backup.getSpec()), null, args(backup),
          StorageProviders.of(backup.getSpec()), false), settings);
      job.getSpec().getTemplate().getSpec().setAutomountServiceAccountToken(false);
      jobs.resource(job).create();
      return new Outcome(Step.WAIT, "Cleaning", "Job " + name + " deleting the data under " + backup.getStatus().getBackupPath());
    }
    if (JobVerdicts.hasTrue(clean, "Complete")) {
      return new Outcome(Step.RELEASE, "Cleaned",
          lookups.lastMessage(ns, name).orElse("Job " + name + " deleted the data under " + backup.getStatus().getBackupPath()));
    }
    if (JobVerdicts.hasTrue(clean, "Failed")) {
      Optional<String> why = lookups.failureMessage(ns, name);
      return new Outcome(Step.STUCK, "CleanFailed", why.orElse("Job " + name + " failed") + "; delete Job " + name
          + " to retry, or remove the finalizer to keep the data and release the Backup");
    }
    return new Outcome(Step.WAIT, "Cleaning", "Job " + name + " deleting the data under " + backup.getStatus().getBackupPath());
  }
}
