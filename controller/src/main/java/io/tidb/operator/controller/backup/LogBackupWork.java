package io.tidb.operator.controller.backup;

import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.tidb.operator.api.v1alpha1.backup.Backup;
import io.tidb.operator.api.v1alpha1.backup.BackupSpec;
import io.tidb.operator.api.v1alpha1.backup.BackupStatus;
import io.tidb.operator.api.v1alpha1.backup.LogSubCommandStatus;
import io.tidb.operator.api.v1alpha1.backup.StorageProvider;
import io.tidb.operator.api.v1alpha1.backup.StorageProviders;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.controller.runtime.Conditions;
import io.tidb.operator.controller.runtime.ResourceContext;
import io.tidb.operator.controller.runtime.WorkOutcome;
import io.tidb.operator.controller.tidbcluster.member.MemberPods;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One reconcile of a log backup ({@code backupMode: log}). The command the spec asks for ({@link
 * LogBackupCommands#next}) runs once, in the Job {@code backup-<name>-<command>} (the
 * backup-manager running {@code br log <subcommand>}), never while another command's Job of this
 * Backup runs; nothing runs when the status says it is done. When the Job completes the phase
 * moves ({@code Running} after the start or a resume, {@code Paused}, {@code Stopped}) and {@code
 * status.logSubCommandStatuses[<command>]} says {@code Complete}; when it fails that entry says
 * {@code Failed} with BR's error (and a failed start fails the Backup). A finished Job of an
 * earlier spec (the same command asked for again, e.g. a second pause) is deleted first; a
 * finished Job of this spec is never run again.
 */
final class LogBackupWork {

  /** The Backup generation a log command's Job was created for. */
  static final String GENERATION_ANNOTATION = "tidb.pingcap.com/backup-generation";

  private static final Logger LOG = LoggerFactory.getLogger(LogBackupWork.class);

  private final BackupSettings settings;
  private final BackupLookups lookups;
  private final LogCheckpoints checkpoints;
  /** Per Backup (namespace/name/uid), the command whose difference from the task the last read saw. */
  private final Map<String, String> suspects = new ConcurrentHashMap<>();

  /** The phases whose task state is read: the task was started and not stopped. */
  private static final Set<String> KERNEL_SYNCED = Set.of(BackupPhase.RUNNING, LogBackupCommands.PAUSED,
      LogKernel.RETRY_THE_FAILED);

  LogBackupWork(BackupSettings settings, BackupLookups lookups, LogCheckpoints checkpoints) {
    this.settings = settings;
    this.lookups = lookups;
    this.checkpoints = checkpoints;
  }

  /**
   * The commands' work; then, when nothing is left to do and the task was started (Running,
   * Paused, or paused by an error), the task's state is read from PD's etcd and the status
   * corrected when it differs ({@link LogKernel}), then, while it runs, its checkpoint (neither
   * without the TidbCluster); the reconcile comes back after {@link LogCheckpoints#period} to read
   * again.
   */
  WorkOutcome work(ResourceContext<Backup, BackupStatus> ctx) {
    WorkOutcome outcome = commands(ctx);
    if (!WorkOutcome.CONVERGED.equals(outcome.result()) || !KERNEL_SYNCED.contains(ctx.status().getPhase())) {
      return outcome;
    }
    BackupSpec spec = ctx.resource().getSpec();
    Optional<TidbCluster> cluster = lookups.cluster(BackupWork.clusterNamespace(ctx.stored(), spec), spec.getBr().getCluster());
    if (cluster.isPresent()) {
      syncKernel(ctx, cluster.get());
      if (LogCheckpoint.tracked(ctx.status())) {
        readCheckpoint(ctx, cluster.get());
      }
    }
    return WorkOutcome.convergedRecheckAfter("log-task", checkpoints.period());
  }

  /**
   * Reads the task's pause mark in PD's etcd and corrects the status when the task's state
   * differs from it ({@link LogKernel#decide}); a difference seen for the first time is only
   * remembered (until the next read). A failed read changes nothing and is logged.
   */
  private void syncKernel(ResourceContext<Backup, BackupStatus> ctx, TidbCluster cluster) {
    Optional<String> command = LogBackupCommands.next(ctx.resource().getSpec(), ctx.status());
    String id = ctx.namespace() + "/" + ctx.name() + "/" + ctx.stored().getMetadata().getUid();
    if (command.isEmpty() || !LogKernel.compared(ctx.status(), command.get())) {
      suspects.remove(id);
      return;
    }
    String key = LogKernel.pauseKey(ctx.name());
    LogKernel.Kernel kernel;
    try {
      kernel = LogKernel.of(ctx.name(), checkpoints.source().read(cluster, key));
    } catch (RuntimeException e) {
      LOG.warn("event=log_task_unread namespace={} name={} key={} error=\"{}\"", ctx.namespace(), ctx.name(), key,
          e.toString());
      return;
    }
    LogKernel.Verdict verdict = LogKernel.decide(command.get(), ctx.status().getPhase(), kernel, suspects.get(id));
    if (verdict.suspect() == null) {
      suspects.remove(id);
    } else {
      suspects.put(id, verdict.suspect());
    }
    if (!LogKernel.apply(ctx.status(), command.get(), verdict, ctx.generation(), ctx.now())) {
      return;
    }
    switch (verdict.action()) {
      case ERROR_PAUSED -> ctx.events().warning(ctx.stored(), LogKernel.REASON_ERROR_PAUSED,
          "Log backup paused due to error: " + verdict.reason());
      case TO_PAUSED -> ctx.events().normal(ctx.stored(), LogKernel.REASON_KERNEL_SYNC,
          "The task " + ctx.name() + " was paused outside the operator: Paused");
      case TO_RUNNING, RECOVERED -> ctx.events().normal(ctx.stored(), LogKernel.REASON_KERNEL_SYNC,
          "The task " + ctx.name() + " runs: Running");
      default -> { }
    }
  }

  /**
   * Reads the checkpoint the cluster's log-backup advancer keeps in PD's etcd and records it when
   * it moved. A failed read changes nothing (as upstream, it is tried again next period) and is
   * logged.
   */
  private void readCheckpoint(ResourceContext<Backup, BackupStatus> ctx, TidbCluster cluster) {
    String prefix = LogCheckpoint.prefix(ctx.name());
    try {
      LogCheckpoint.apply(ctx.status(), LogCheckpoint.tsoOf(checkpoints.source().read(cluster, prefix)), ctx.now());
    } catch (RuntimeException e) {
      LOG.warn("event=log_checkpoint_unread namespace={} name={} cluster={}/{} key={} error=\"{}\"", ctx.namespace(),
          ctx.name(), cluster.getMetadata().getNamespace(), cluster.getMetadata().getName(), prefix, e.toString());
    }
  }

  private WorkOutcome commands(ResourceContext<Backup, BackupStatus> ctx) {
    BackupStatus status = ctx.status();
    BackupSpec spec = ctx.resource().getSpec();
    if (BackupPhase.FAILED.equals(status.getPhase()) && status.getCommitTs() == null) {
      return WorkOutcome.converged();
    }
    Optional<String> next = LogBackupCommands.next(spec, status);
    if (next.isEmpty()) {
      return WorkOutcome.converged();
    }
    String command = next.get();
    String jobName = LogBackupCommands.jobName(ctx.name(), command);
    Optional<Job> job = ctx.owned().get(Job.class, jobName);
    if (!unreported(ctx, job, command) && LogBackupCommands.done(spec, status, command)) {
      return WorkOutcome.converged();
    }
    Optional<String> waiting = LogBackupCommands.waitingFor(status, command);
    if (waiting.isPresent()) {
      return WorkOutcome.converging("log", waiting.get());
    }
    Optional<Job> other = otherRunningJob(ctx, command);
    if (other.isPresent()) {
      return WorkOutcome.converging("job", "Job " + other.get().getMetadata().getName() + " to finish before " + command);
    }
    if (job.isPresent()) {
      if (!BackupWork.ownedBy(job.get(), ctx.stored())) {
        return WorkOutcome.converging("job", "Job " + jobName + " belongs to someone else");
      }
      boolean finished = JobVerdicts.hasTrue(job.get(), "Complete") || JobVerdicts.hasTrue(job.get(), "Failed");
      if (finished && !Objects.equals(generationOf(job.get()), String.valueOf(ctx.generation()))) {
        lookups.deleteJob(ctx.namespace(), jobName);
        return WorkOutcome.converging("job", "the finished Job " + jobName + " of an earlier spec to be deleted");
      }
      if (finished && repeatable(status, command)) {
        lookups.deleteJob(ctx.namespace(), jobName);
        return WorkOutcome.converging("job", "the finished Job " + jobName + " to be deleted: " + command
            + " is to run again");
      }
      return follow(ctx, job.get(), command);
    }
    String clusterNs = BackupWork.clusterNamespace(ctx.stored(), spec);
    Optional<TidbCluster> cluster = lookups.cluster(clusterNs, spec.getBr().getCluster());
    if (cluster.isEmpty()) {
      condition(ctx, BackupPhase.SCHEDULED, Conditions.FALSE, BackupWork.REASON_CLUSTER,
          "TidbCluster " + clusterNs + "/" + spec.getBr().getCluster() + " not found", command);
      return WorkOutcome.converging("cluster", "TidbCluster " + spec.getBr().getCluster());
    }
    StorageProvider storage = StorageProviders.of(spec);
    Optional<String> secretProblem = BackupWork.secretProblem(lookups, ctx.namespace(), storage);
    if (secretProblem.isPresent()) {
      condition(ctx, BackupPhase.SCHEDULED, Conditions.FALSE, BackupWork.REASON_SECRET, secretProblem.get(), command);
      return WorkOutcome.converging("secret", secretProblem.get());
    }
    String serviceAccount = BackupWork.jobServiceAccount(ctx, serviceAccountName(ctx.stored()), "backups",
        Map.of(BackupJob.BACKUP_LABEL, ctx.name()));
    Job desired = commandJob(ctx.stored(), cluster.get(), command, jobName, serviceAccount, settings);
    Map<String, String> annotations = desired.getMetadata().getAnnotations() == null
        ? new LinkedHashMap<>() : new LinkedHashMap<>(desired.getMetadata().getAnnotations());
    annotations.put(GENERATION_ANNOTATION, String.valueOf(ctx.generation()));
    desired.getMetadata().setAnnotations(annotations);
    ctx.apply(desired);
    status.setBackupPath(StorageUrls.url(storage));
    if (status.getPhase() == null) {
      status.setPhase(BackupPhase.SCHEDULED);
    }
    LogSubCommandStatus sub = subStatus(status, command);
    sub.setPhase(BackupPhase.SCHEDULED);
    if (LogBackupCommands.TRUNCATE.equals(command)) {
      sub.setLogTruncatingUntil(spec.getLogTruncateUntil());
    }
    condition(ctx, BackupPhase.SCHEDULED, Conditions.TRUE, JobVerdicts.REASON_JOB_CREATED, "Job " + jobName + " created", command);
    ctx.events().normal(ctx.stored(), "LogBackupCommand", "Job " + jobName + " runs br log " + LogBackupCommands.brSubcommand(command));
    return WorkOutcome.converging("job", "Job " + jobName + " to finish");
  }

  /** The ServiceAccount the operator makes for a log backup's Jobs: {@code backup-<name>}. */
  static String serviceAccountName(Backup backup) {
    return backup.getSpec().getServiceAccount() != null ? backup.getSpec().getServiceAccount()
        : "backup-" + backup.getMetadata().getName();
  }

  /**
   * The Job {@code jobName} running {@code br log <command>} of {@code backup} against {@code
   * cluster} (the cluster's client certificate mounted when it has TLS). Pure.
   */
  static Job commandJob(Backup backup, TidbCluster cluster, String command, String jobName, String serviceAccount,
      BackupSettings settings) {
    BackupSpec spec = backup.getSpec();
    String clusterNs = BackupWork.clusterNamespace(backup, spec);
    String pd = settings.pdAddress(clusterNs, spec.getBr().getCluster(), cluster.getSpec().getClusterDomain());
    boolean tls = MemberPods.tlsCluster(cluster);
    List<String> args = BackupJob.managerArgs("backup", backup, tls, settings.brPath(),
        BrCommandLine.log(spec, pd, backup.getMetadata().getName(), command));
    Map<String, String> extra = Map.of(BackupJob.BACKUP_LABEL, backup.getMetadata().getName());
    return BackupJob.build(new BackupJob.Work(backup, jobName, "backup", extra, serviceAccount,
        JobPod.of(spec), BackupWork.brImage(spec.getToolImage(), cluster), args, StorageProviders.of(spec), tls),
        settings);
  }

  private WorkOutcome follow(ResourceContext<Backup, BackupStatus> ctx, Job job, String command) {
    BackupStatus status = ctx.status();
    String name = job.getMetadata().getName();
    LogSubCommandStatus sub = subStatus(status, command);
    if (JobVerdicts.hasTrue(job, "Complete")) {
      if (!LogBackupCommands.done(ctx.resource().getSpec(), withPhase(status, command), command)) {
        return failed(ctx, command, JobVerdicts.REASON_NO_RESULT,
            "Job " + name + " completed but the backup-manager reported no result");
      }
      String before = status.getPhase();
      status.setPhase(LogBackupCommands.phaseAfter(command, before));
      sub.setPhase(BackupPhase.COMPLETE);
      condition(ctx, status.getPhase(), Conditions.TRUE, JobVerdicts.REASON_COMPLETE,
          "br log " + LogBackupCommands.brSubcommand(command) + " succeeded (Job " + name + ")", command);
      ctx.events().normal(ctx.stored(), "LogBackupCommandComplete", "br log "
          + LogBackupCommands.brSubcommand(command) + " succeeded" + (status.getCommitTs() == null ? ""
          : ", log backup from commitTs " + status.getCommitTs()));
      return WorkOutcome.converging("log", "the next log command");
    }
    if (JobVerdicts.hasTrue(job, "Failed")) {
      String why = lookups.failureMessage(ctx.namespace(), name).orElse("Job " + name + " failed");
      return failed(ctx, command, JobVerdicts.REASON_FAILED, why);
    }
    if (status.getTimeStarted() != null && LogBackupCommands.START.equals(command)
        && (BackupPhase.SCHEDULED.equals(sub.getPhase()) || BackupPhase.PREPARE.equals(sub.getPhase()))) {
      sub.setPhase(BackupPhase.RUNNING);
    }
    return WorkOutcome.converging("job", "Job " + name + " to finish");
  }

  private WorkOutcome failed(ResourceContext<Backup, BackupStatus> ctx, String command, String reason, String message) {
    BackupStatus status = ctx.status();
    LogSubCommandStatus sub = subStatus(status, command);
    boolean changed = !BackupPhase.FAILED.equals(sub.getPhase());
    sub.setPhase(BackupPhase.FAILED);
    if (LogBackupCommands.START.equals(command)) {
      status.setPhase(BackupPhase.FAILED);
    }
    condition(ctx, BackupPhase.FAILED, Conditions.TRUE, reason, command + ": " + message, command);
    if (changed) {
      ctx.events().warning(ctx.stored(), "LogBackupCommandFailed", command + ": " + message);
    }
    return WorkOutcome.converged();
  }

  /**
   * What "done" means once the command's Job completed: the start needs the commitTs the
   * backup-manager wrote, the truncation its logSuccessTruncateUntil; the others have nothing to
   * report, the Job's success is the result.
   */
  private static BackupStatus withPhase(BackupStatus status, String command) {
    BackupStatus s = new BackupStatus();
    s.setCommitTs(status.getCommitTs());
    s.setLogSuccessTruncateUntil(status.getLogSuccessTruncateUntil());
    s.setPhase(LogBackupCommands.phaseAfter(command, status.getPhase()));
    return s;
  }

  /**
   * Whether the command's Job of this spec exists and its end is not in the status yet: the
   * backup-manager writes its result before the Job completes, so the result alone does not mean
   * the controller is done with it. An entry the task's error pause marked RetryFailed was
   * reported (its Job completed before).
   */
  private static boolean unreported(ResourceContext<Backup, BackupStatus> ctx, Optional<Job> job, String command) {
    if (job.isEmpty() || !Objects.equals(generationOf(job.get()), String.valueOf(ctx.generation()))) {
      return false;
    }
    Map<String, LogSubCommandStatus> subs = ctx.status().getLogSubCommandStatuses();
    LogSubCommandStatus sub = subs == null ? null : subs.get(command);
    return sub == null || !(BackupPhase.COMPLETE.equals(sub.getPhase()) || BackupPhase.FAILED.equals(sub.getPhase())
        || LogKernel.RETRY_THE_FAILED.equals(sub.getPhase()));
  }

  /**
   * Whether {@code command}'s entry says it has to run again ({@link LogKernel#REPEATABLE}: the
   * task was paused or resumed outside the operator since its Job ran).
   */
  private static boolean repeatable(BackupStatus status, String command) {
    Map<String, LogSubCommandStatus> subs = status.getLogSubCommandStatuses();
    return subs != null && subs.containsKey(command) && LogKernel.REPEATABLE.equals(subs.get(command).getPhase());
  }

  private Optional<Job> otherRunningJob(ResourceContext<Backup, BackupStatus> ctx, String command) {
    for (String other : List.of(LogBackupCommands.START, LogBackupCommands.STOP, LogBackupCommands.PAUSE,
        LogBackupCommands.RESUME, LogBackupCommands.TRUNCATE)) {
      if (other.equals(command)) {
        continue;
      }
      Optional<Job> job = ctx.owned().get(Job.class, LogBackupCommands.jobName(ctx.name(), other));
      if (job.isPresent() && !JobVerdicts.hasTrue(job.get(), "Complete") && !JobVerdicts.hasTrue(job.get(), "Failed")) {
        return job;
      }
    }
    return Optional.empty();
  }

  private static String generationOf(Job job) {
    return job.getMetadata().getAnnotations() == null ? null
        : job.getMetadata().getAnnotations().get(GENERATION_ANNOTATION);
  }

  static LogSubCommandStatus subStatus(BackupStatus status, String command) {
    Map<String, LogSubCommandStatus> all = status.getLogSubCommandStatuses() == null
        ? new LinkedHashMap<>() : new LinkedHashMap<>(status.getLogSubCommandStatuses());
    LogSubCommandStatus sub = all.computeIfAbsent(command, c -> {
      LogSubCommandStatus s = new LogSubCommandStatus();
      s.setCommand(c);
      return s;
    });
    status.setLogSubCommandStatuses(all);
    return sub;
  }

  /** Sets the condition {@code type} and records which log command it is about, as upstream. */
  private static void condition(ResourceContext<Backup, BackupStatus> ctx, String type, String status,
      String reason, String message, String command) {
    BackupStatuses.setCondition(ctx.status(), type, status, reason, message, command, ctx.generation(), ctx.now());
  }


}
