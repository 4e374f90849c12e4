package io.tidb.operator.controller.backup;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.tidb.operator.api.v1alpha1.backup.Backup;
import io.tidb.operator.api.v1alpha1.backup.BackupSpec;
import io.tidb.operator.api.v1alpha1.backup.BackupStatus;
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
 * One reconcile of a valid Backup. A Complete or Failed Backup is left alone for good: no Job is
 * ever created for it again. Otherwise: while its Job exists, the Job's state and the
 * backup-manager's fields decide the phase ({@link JobVerdicts}); a Job that the status says was
 * created and the API server no longer has ends the Backup Failed; with no Job yet, the cluster
 * and the credential Secret's keys are checked, then the Job's ServiceAccount, Role and
 * RoleBinding and the Job {@code backup-<name>} are created and the phase becomes Scheduled. A log
 * backup ({@code backupMode: log}) is {@link LogBackupWork}'s.
 */
public final class BackupWork implements ReconcileWork<Backup, BackupStatus> {

  public static final String REASON_CLUSTER = "ClusterNotFound";
  public static final String REASON_SECRET = "SecretNotReady";

  private final BackupSettings settings;
  private final BackupLookups lookups;
  private final LogBackupWork logBackups;

  /** @param checkpoints how a running log backup's checkpoint is read ({@link LogBackupWork}) */
  public BackupWork(BackupSettings settings, BackupLookups lookups, LogCheckpoints checkpoints) {
    this.settings = settings;
    this.lookups = lookups;
    this.logBackups = new LogBackupWork(settings, lookups, checkpoints);
  }

  /** {@code backup-<name>}, as upstream names the Job. */
  public static String jobName(Backup b) {
    return "backup-" + b.getMetadata().getName();
  }

  /** Started on the first Backup: a namespace without one lists and watches none of them. */
  @Override
  public boolean ownedInformersOnFirstResource() {
    return true;
  }

  @Override
  public List<EventSource<?, Backup>> eventSources(EventSourceContext<Backup> context) {
    // Only this controller's Jobs and their permissions: every TidbCluster's discovery
    // ServiceAccount, Role and RoleBinding would otherwise be cached and watched here too.
    return OwnedEventSources.owned(context, List.<Class<? extends HasMetadata>>of(
        Job.class, ServiceAccount.class, Role.class, RoleBinding.class), BackupJob.BACKUP_LABEL);
  }

  @Override
  public WorkOutcome work(ResourceContext<Backup, BackupStatus> ctx) {
    if ("log".equals(ctx.resource().getSpec().getBackupMode())) {
      return logBackups.work(ctx);
    }
    BackupStatus status = ctx.status();
    if (status.getPhase() != null && BackupPhase.TERMINAL.contains(status.getPhase())) {
      return WorkOutcome.converged();
    }
    String jobName = jobName(ctx.stored());
    Optional<Job> job = ctx.owned().get(Job.class, jobName);
    if (job.isPresent()) {
      if (!ownedBy(job.get(), ctx.stored())) {
        waiting(ctx, JobVerdicts.REASON_JOB_CONFLICT, "Job " + jobName + " exists and belongs to someone else");
        return WorkOutcome.converging("job", "Job " + jobName + " to be removed");
      }
      return follow(ctx, job.get());
    }
    if (status.getPhase() != null && BackupPhase.IN_FLIGHT.contains(status.getPhase())) {
      if (lookups.jobExists(ctx.namespace(), jobName)) {
        return WorkOutcome.converging("job", "the Job cache to catch up");
      }
      verdict(ctx, JobVerdicts.jobGone(jobName));
      ctx.events().warning(ctx.stored(), JobVerdicts.REASON_JOB_DELETED, JobVerdicts.jobGone(jobName).message());
      return WorkOutcome.converged();
    }
    BackupSpec spec = ctx.resource().getSpec();
    String clusterNs = clusterNamespace(ctx.stored(), spec);
    Optional<TidbCluster> cluster = lookups.cluster(clusterNs, spec.getBr().getCluster());
    if (cluster.isEmpty()) {
      waiting(ctx, REASON_CLUSTER, "TidbCluster " + clusterNs + "/" + spec.getBr().getCluster() + " not found");
      return WorkOutcome.converging("cluster", "TidbCluster " + spec.getBr().getCluster());
    }
    StorageProvider storage = StorageProviders.of(spec);
    Optional<String> secretProblem = secretProblem(lookups, ctx.namespace(), storage);
    if (secretProblem.isPresent()) {
      waiting(ctx, REASON_SECRET, secretProblem.get());
      return WorkOutcome.converging("secret", secretProblem.get());
    }
    String pd = settings.pdAddress(clusterNs, spec.getBr().getCluster(), cluster.get().getSpec().getClusterDomain());
    boolean tls = MemberPods.tlsCluster(cluster.get());
    List<String> args = BackupJob.managerArgs("backup", ctx.stored(), tls, settings.brPath(),
        BrCommandLine.backup(spec, pd));
    Map<String, String> extra = Map.of(BackupJob.BACKUP_LABEL, ctx.name());
    String serviceAccount = jobServiceAccount(ctx, jobName, "backups", extra);
    Job desired = BackupJob.build(new BackupJob.Work(ctx.stored(), jobName, "backup", extra, serviceAccount,
        JobPod.of(spec), brImage(spec.getToolImage(), cluster.get()), args, storage, tls), settings);
    ctx.apply(desired);
    status.setBackupPath(StorageUrls.url(storage));
    verdict(ctx, new JobVerdicts.Verdict(BackupPhase.SCHEDULED, JobVerdicts.REASON_JOB_CREATED,
        "Job " + jobName + " created"));
    return WorkOutcome.converging("job", "Job " + jobName + " to finish");
  }

  private WorkOutcome follow(ResourceContext<Backup, BackupStatus> ctx, Job job) {
    BackupStatus s = ctx.status();
    boolean failed = JobVerdicts.hasTrue(job, "Failed");
    Optional<String> message = failed
        ? lookups.failureMessage(ctx.namespace(), job.getMetadata().getName()) : Optional.empty();
    JobVerdicts.Verdict v = JobVerdicts.ofJob(job, s.getTimeStarted() != null, s.getCommitTs() != null, message);
    String before = s.getPhase();
    if (JobVerdicts.keepsPrepare(before, v)) {
      return WorkOutcome.converging("job", "the backup-manager of Job " + job.getMetadata().getName()
          + " to start BR (Prepare)");
    }
    verdict(ctx, v);
    if (!Objects.equals(before, v.phase())) {
      if (BackupPhase.COMPLETE.equals(v.phase())) {
        ctx.events().normal(ctx.stored(), "BackupComplete", "backup to " + s.getBackupPath() + " complete, commitTs "
            + s.getCommitTs() + (s.getBackupSizeReadable() == null ? "" : ", " + s.getBackupSizeReadable()));
      } else if (BackupPhase.FAILED.equals(v.phase())) {
        ctx.events().warning(ctx.stored(), "BackupFailed", v.message());
      }
    }
    return BackupPhase.TERMINAL.contains(v.phase())
        ? WorkOutcome.converged() : WorkOutcome.converging("job", "Job " + job.getMetadata().getName() + " to finish");
  }

  /**
   * The Job's ServiceAccount: the user's {@code spec.serviceAccount}, or one of the operator's with
   * a Role for exactly this object ({@link JobPermissions}).
   */
  static <P extends HasMetadata, S> String jobServiceAccount(
      ResourceContext<P, S> ctx, String name, String plural, Map<String, String> extra) {
    String own = ownServiceAccount(ctx.resource());
    if (own != null) {
      return own;
    }
    Map<String, String> labels = BackupJob.labels(ctx.stored(), "backup-manager", extra);
    ctx.apply(JobPermissions.serviceAccount(ctx.stored(), name, labels));
    ctx.apply(JobPermissions.role(ctx.stored(), name, plural, labels));
    ctx.apply(JobPermissions.roleBinding(ctx.stored(), name, labels));
    return name;
  }

  private static String ownServiceAccount(HasMetadata resource) {
    if (resource instanceof Backup b) {
      return b.getSpec().getServiceAccount();
    }
    if (resource instanceof io.tidb.operator.api.v1alpha1.backup.Restore r) {
      return r.getSpec().getServiceAccount();
    }
    return null;
  }

  /** What is wrong with the credential Secret, without any of its values. */
  static Optional<String> secretProblem(BackupLookups lookups, String namespace, StorageProvider storage) {
    for (Map.Entry<String, List<String>> e : BackupJob.secretKeys(storage).entrySet()) {
      Optional<Secret> secret = lookups.secret(namespace, e.getKey());
      if (secret.isEmpty()) {
        return Optional.of("Secret " + e.getKey() + " with the storage credentials not found");
      }
      List<String> missing = e.getValue().stream()
          .filter(k -> !has(secret.get(), k)).toList();
      if (!missing.isEmpty()) {
        return Optional.of("Secret " + e.getKey() + " lacks the key(s) " + String.join(", ", missing));
      }
    }
    if (storage.getAzblob() != null && storage.getAzblob().getSecretName() != null) {
      Optional<Secret> azure = lookups.secret(namespace, storage.getAzblob().getSecretName());
      if (azure.isPresent()) {
        return BackupJob.azureCredentialProblem(storage.getAzblob(), k -> has(azure.get(), k));
      }
    }
    return Optional.empty();
  }

  private static boolean has(Secret s, String key) {
    return (s.getData() != null && s.getData().containsKey(key))
        || (s.getStringData() != null && s.getStringData().containsKey(key));
  }

  /** The image the br binary is copied from: toolImage, else BR of the cluster's version. */
  static String brImage(String toolImage, TidbCluster tc) {
    if (toolImage != null && !toolImage.isEmpty()) {
      return toolImage;
    }
    String version = tc.getSpec().getVersion();
    return "pingcap/br" + (version == null || version.isEmpty() ? ":latest" : ":" + version);
  }

  static String clusterNamespace(HasMetadata owner, BackupSpec spec) {
    String ns = spec.getBr().getClusterNamespace();
    return ns == null || ns.isEmpty() ? owner.getMetadata().getNamespace() : ns;
  }

  private static void waiting(ResourceContext<Backup, BackupStatus> ctx, String reason, String message) {
    ctx.status().setConditions(setCondition(ctx.status().getConditions(), BackupPhase.SCHEDULED,
        Conditions.FALSE, reason, message, ctx));
  }

  private static void verdict(ResourceContext<Backup, BackupStatus> ctx, JobVerdicts.Verdict v) {
    BackupStatus s = ctx.status();
    s.setPhase(v.phase());
    s.setConditions(setCondition(s.getConditions(), v.phase(), Conditions.TRUE, v.reason(), v.message(), ctx));
  }

  private static List<io.tidb.operator.api.v1alpha1.backup.BackupCondition> setCondition(
      List<io.tidb.operator.api.v1alpha1.backup.BackupCondition> current, String type, String status,
      String reason, String message, ResourceContext<Backup, BackupStatus> ctx) {
    BackupStatus scratch = new BackupStatus();
    scratch.setConditions(current);
    BackupStatuses.BACKUP.setConditions(scratch, Conditions.set(BackupStatuses.BACKUP.conditions(scratch), type,
        status, reason, message, ctx.generation(), ctx.now()));
    return scratch.getConditions();
  }

  static boolean ownedBy(HasMetadata obj, HasMetadata owner) {
    List<OwnerReference> refs = obj.getMetadata().getOwnerReferences();
    return refs != null && refs.stream().anyMatch(r -> Boolean.TRUE.equals(r.getController())
        && Objects.equals(r.getUid(), owner.getMetadata().getUid()));
  }
}
