package io.tidb.operator.controller.backup;

import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import java.util.Optional;

/**
 * Pure decisions of the Backup and Restore controllers: what a Job's state (and the fields the
 * backup-manager wrote) mean for the phase, with the reason and message of its condition.
 */
public final class JobVerdicts {

  public static final String REASON_JOB_CREATED = "JobCreated";
  public static final String REASON_STARTED = "BackupManagerStarted";
  public static final String REASON_COMPLETE = "Completed";
  public static final String REASON_FAILED = "JobFailed";
  public static final String REASON_JOB_DELETED = "JobDeleted";
  public static final String REASON_NO_RESULT = "NoResult";
  public static final String REASON_JOB_CONFLICT = "JobNotOwned";

  private JobVerdicts() {}

  /** A phase with the reason and message of its condition. */
  public record Verdict(String phase, String reason, String message) {}

  /**
   * What a Job means.
   *
   * @param started whether the backup-manager has written its start time
   * @param reported whether the backup-manager has written its result (commitTs)
   * @param failureMessage the failed pod's termination message (the backup-manager's last line)
   */
  public static Verdict ofJob(Job job, boolean started, boolean reported, Optional<String> failureMessage) {
    String name = job.getMetadata().getName();
    if (hasTrue(job, "Complete")) {
      if (reported) {
        return new Verdict(BackupPhase.COMPLETE, REASON_COMPLETE, "Job " + name + " completed");
      }
      return new Verdict(BackupPhase.FAILED, REASON_NO_RESULT,
          "Job " + name + " completed but the backup-manager reported no result");
    }
    Optional<JobCondition> failed = condition(job, "Failed");
    if (failed.isPresent()) {
      JobCondition c = failed.get();
      String why = failureMessage.orElse("Job " + name + " failed: " + c.getReason()
          + (c.getMessage() == null ? "" : " (" + c.getMessage() + ")"));
      return new Verdict(BackupPhase.FAILED, REASON_FAILED, why);
    }
    if (started) {
      return new Verdict(BackupPhase.RUNNING, REASON_STARTED, "Job " + name + " is running BR");
    }
    return new Verdict(BackupPhase.SCHEDULED, REASON_JOB_CREATED, "Job " + name + " created, waiting for its pod");
  }

  /**
   * Whether {@code v} would take back the {@code Prepare} the backup-manager set ({@code
   * currentPhase}) only because BR has not started yet: then the phase and its condition stay as
   * the backup-manager wrote them, until it writes its start time (Running) or the Job ends.
   */
  public static boolean keepsPrepare(String currentPhase, Verdict v) {
    return BackupPhase.PREPARE.equals(currentPhase) && BackupPhase.SCHEDULED.equals(v.phase());
  }

  /** A Job the status says was created, and which the API server no longer has. */
  public static Verdict jobGone(String jobName) {
    return new Verdict(BackupPhase.FAILED, REASON_JOB_DELETED,
        "Job " + jobName + " was deleted before it finished; delete and recreate the object to run it again");
  }

  /** The last non-blank line of a termination message, which the backup-manager writes last. */
  public static Optional<String> lastLine(String message) {
    if (message == null) {
      return Optional.empty();
    }
    String[] lines = message.strip().split("\n");
    for (int i = lines.length - 1; i >= 0; i--) {
      if (!lines[i].isBlank()) {
        return Optional.of(lines[i].strip());
      }
    }
    return Optional.empty();
  }

  static boolean hasTrue(Job job, String type) {
    return condition(job, type).isPresent();
  }

  private static Optional<JobCondition> condition(Job job, String type) {
    if (job.getStatus() == null || job.getStatus().getConditions() == null) {
      return Optional.empty();
    }
    return job.getStatus().getConditions().stream()
        .filter(c -> type.equals(c.getType()) && "True".equals(c.getStatus())).findFirst();
  }
}
