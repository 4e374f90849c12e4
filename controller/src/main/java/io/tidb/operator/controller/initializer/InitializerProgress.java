package io.tidb.operator.controller.initializer;

import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.cluster.TidbMember;
import io.tidb.operator.api.v1alpha1.initializer.InitializePhase;
import java.util.Map;
import java.util.Optional;

/**
 * Pure decisions of the TidbInitializer controller: whether TiDB is up, and the phase a Job's
 * status means, with the reason and message of the {@code Initialized} condition.
 */
public final class InitializerProgress {

  public static final String REASON_WAITING = "WaitingForTiDB";
  public static final String REASON_REFERENCES = "WaitingForReferences";
  public static final String REASON_RUNNING = "Running";
  public static final String REASON_COMPLETED = "Completed";
  public static final String REASON_FAILED = "InitializationFailed";
  public static final String REASON_JOB_CONFLICT = "JobNotOwned";

  private InitializerProgress() {}

  /** A phase with the reason and message the {@code Initialized} condition shows. */
  public record Verdict(InitializePhase phase, String reason, String message) {}

  /**
   * What TiDB still lacks before the Job may run; empty when at least one TiDB member is healthy
   * (as the TidbCluster's status reports it).
   */
  public static Optional<String> tidbNotUp(TidbCluster tc) {
    Map<String, TidbMember> members =
        tc.getStatus() == null || tc.getStatus().getTidb() == null ? null : tc.getStatus().getTidb().getMembers();
    long healthy =
        members == null ? 0 : members.values().stream().filter(m -> Boolean.TRUE.equals(m.getHealth())).count();
    if (healthy > 0) {
      return Optional.empty();
    }
    int total = members == null ? 0 : members.size();
    return Optional.of(
        "waiting for TiDB of TidbCluster " + tc.getMetadata().getName() + ": " + total
            + " members, none healthy yet");
  }

  /**
   * The phase the Job's status means: Completed or Failed by its conditions, otherwise Running.
   *
   * @param failureMessage the failed pod's termination message (the initializer's last line)
   */
  public static Verdict ofJob(Job job, Optional<String> failureMessage) {
    if (job.getStatus() != null && job.getStatus().getConditions() != null) {
      for (JobCondition c : job.getStatus().getConditions()) {
        if ("Complete".equals(c.getType()) && "True".equals(c.getStatus())) {
          return new Verdict(InitializePhase.COMPLETED, REASON_COMPLETED,
              "Job " + job.getMetadata().getName() + " completed" + failureMessage.map(m -> ": " + m).orElse(""));
        }
        if ("Failed".equals(c.getType()) && "True".equals(c.getStatus())) {
          String why = failureMessage.orElse(
              "Job " + job.getMetadata().getName() + " failed: " + c.getReason()
                  + (c.getMessage() == null ? "" : " (" + c.getMessage() + ")"));
          return new Verdict(InitializePhase.FAILED, REASON_FAILED,
              why + "; fix the cause, then delete Job " + job.getMetadata().getName() + " to run again");
        }
      }
    }
    return new Verdict(InitializePhase.RUNNING, REASON_RUNNING, "Job " + job.getMetadata().getName() + " is running");
  }

  /** The last non-blank line of a termination message, which the initializer writes last. */
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
}
