package io.tidb.operator.controller.backup;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.tidb.operator.api.v1alpha1.backup.Restore;
import io.tidb.operator.api.v1alpha1.backup.RestoreSpec;
import io.tidb.operator.api.v1alpha1.backup.RestoreStatus;
import io.tidb.operator.api.v1alpha1.backup.StorageProvider;
import io.tidb.operator.api.v1alpha1.backup.StorageProviders;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.controller.runtime.Conditions;
import io.tidb.operator.controller.runtime.OwnedEventSources;
import io.tidb.operator.controller.runtime.ReconcileWork;
import io.tidb.operator.controller.runtime.ResourceContext;
import io.tidb.operator.controller.runtime.WorkOutcome;
import io.tidb.operator.controller.tidbcluster.member.MemberPods;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One reconcile of a valid Restore, the same shape as {@link BackupWork}: a Complete or Failed
 * Restore is never run again; a Job that disappears ends it Failed; otherwise the Job {@code
 * restore-<name>} runs {@code br restore} (or {@code br restore point} for pitr).
 */
public final class RestoreWork implements ReconcileWork<Restore, RestoreStatus> {

  private final BackupSettings settings;
  private final BackupLookups lookups;

  public RestoreWork(BackupSettings settings, BackupLookups lookups) {
    this.settings = settings;
    this.lookups = lookups;
  }

  /** {@code restore-<name>}, as upstream names the Job. */
  public static String jobName(Restore r) {
    return "restore-" + r.getMetadata().getName();
  }

  /** Started on the first Restore: a namespace without one lists and watches none of them. */
  @Override
  public boolean ownedInformersOnFirstResource() {
    return true;
  }

  @Override
  public List<EventSource<?, Restore>> eventSources(EventSourceContext<Restore> context) {
    // Only this controller's Jobs and their permissions: every TidbCluster's discovery
    // ServiceAccount, Role and RoleBinding would otherwise be cached and watched here too.
    return OwnedEventSources.owned(context, List.<Class<? extends HasMetadata>>of(
        Job.class, ServiceAccount.class, Role.class, RoleBinding.class), BackupJob.RESTORE_LABEL);
  }

  @Override
  public WorkOutcome work(ResourceContext<Restore, RestoreStatus> ctx) {
    RestoreStatus status = ctx.status();
    if (status.getPhase() != null && BackupPhase.TERMINAL.contains(status.getPhase())) {
      return WorkOutcome.converged();
    }
    String jobName = jobName(ctx.stored());
    Optional<Job> job = ctx.owned().get(Job.class, jobName);
    if (job.isPresent()) {
      if (!BackupWork.ownedBy(job.get(), ctx.stored())) {
        condition(ctx, BackupPhase.SCHEDULED, Conditions.FALSE, JobVerdicts.REASON_JOB_CONFLICT,
            "Job " + jobName + " exists and belongs to someone else");
        return WorkOutcome.converging("job", "Job " + jobName + " to be removed");
      }
      return follow(ctx, job.get());
    }
    if (status.getPhase() != null && BackupPhase.IN_FLIGHT.contains(status.getPhase())) {
      if (lookups.jobExists(ctx.namespace(), jobName)) {
        return WorkOutcome.converging("job", "the Job cache to catch up");
      }
      JobVerdicts.Verdict gone = JobVerdicts.jobGone(jobName);
      verdict(ctx, gone);
      ctx.events().warning(ctx.stored(), gone.reason(), gone.message());
      return WorkOutcome.converged();
    }
    RestoreSpec spec = ctx.resource().getSpec();
    String clusterNs = spec.getBr().getClusterNamespace() == null || spec.getBr().getClusterNamespace().isEmpty()
        ? ctx.namespace() : spec.getBr().getClusterNamespace();
    Optional<TidbCluster> cluster = lookups.cluster(clusterNs, spec.getBr().getCluster());
    if (cluster.isEmpty()) {
      condition(ctx, BackupPhase.SCHEDULED, Conditions.FALSE, BackupWork.REASON_CLUSTER,
          "TidbCluster " + clusterNs + "/" + spec.getBr().getCluster() + " not found");
      return WorkOutcome.converging("cluster", "TidbCluster " + spec.getBr().getCluster());
    }
    StorageProvider storage = StorageProviders.of(spec);
    Optional<String> secretProblem = BackupWork.secretProblem(lookups, ctx.namespace(), storage);
    if (secretProblem.isPresent()) {
      condition(ctx, BackupPhase.SCHEDULED, Conditions.FALSE, BackupWork.REASON_SECRET, secretProblem.get());
      return WorkOutcome.converging("secret", secretProblem.get());
    }
    String pd = settings.pdAddress(clusterNs, spec.getBr().getCluster(), cluster.get().getSpec().getClusterDomain());
    boolean tls = MemberPods.tlsCluster(cluster.get());
    List<String> args = BackupJob.managerArgs("restore", ctx.stored(), tls, settings.brPath(),
        BrCommandLine.restore(spec, pd));
    Map<String, String> extra = Map.of(BackupJob.RESTORE_LABEL, ctx.name());
    String serviceAccount = BackupWork.jobServiceAccount(ctx, jobName, "restores", extra);
    ctx.apply(BackupJob.build(new BackupJob.Work(ctx.stored(), jobName, "restore", extra, serviceAccount,
        JobPod.of(spec), BackupWork.brImage(spec.getToolImage(), cluster.get()), args, storage, tls), settings));
    verdict(ctx, new JobVerdicts.Verdict(BackupPhase.SCHEDULED, JobVerdicts.REASON_JOB_CREATED, "Job " + jobName + " created"));
    return WorkOutcome.converging("job", "Job " + jobName + " to finish");
  }

  private WorkOutcome follow(ResourceContext<Restore, RestoreStatus> ctx, Job job) {
    RestoreStatus s = ctx.status();
    boolean failed = JobVerdicts.hasTrue(job, "Failed");
    Optional<String> message = failed ? lookups.failureMessage(ctx.namespace(), job.getMetadata().getName()) : Optional.empty();
    JobVerdicts.Verdict v = JobVerdicts.ofJob(job, s.getTimeStarted() != null, s.getCommitTs() != null, message);
    String before = s.getPhase();
    verdict(ctx, v);
    if (!Objects.equals(before, v.phase())) {
      if (BackupPhase.COMPLETE.equals(v.phase())) {
        ctx.events().normal(ctx.stored(), "RestoreComplete", "restore complete, commitTs " + s.getCommitTs());
      } else if (BackupPhase.FAILED.equals(v.phase())) {
        ctx.events().warning(ctx.stored(), "RestoreFailed", v.message());
      }
    }
    return BackupPhase.TERMINAL.contains(v.phase())
        ? WorkOutcome.converged() : WorkOutcome.converging("job", "Job " + job.getMetadata().getName() + " to finish");
  }

  private static void verdict(ResourceContext<Restore, RestoreStatus> ctx, JobVerdicts.Verdict v) {
    ctx.status().setPhase(v.phase());
    condition(ctx, v.phase(), Conditions.TRUE, v.reason(), v.message());
  }

  private static void condition(ResourceContext<Restore, RestoreStatus> ctx, String type, String status,
      String reason, String message) {
    BackupStatuses.RESTORE.setConditions(ctx.status(), Conditions.set(BackupStatuses.RESTORE.conditions(ctx.status()),
        type, status, reason, message, ctx.generation(), ctx.now()));
  }
}
