package io.tidb.operator.controller.initializer;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import io.fabric8.kubernetes.api.model.batch.v1.JobStatus;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.initializer.InitializePhase;
import io.tidb.operator.api.v1alpha1.initializer.TidbInitializer;
import io.tidb.operator.api.v1alpha1.initializer.TidbInitializerSpec;
import io.tidb.operator.api.v1alpha1.initializer.TidbInitializerStatus;
import io.tidb.operator.api.validation.Violation;
import io.tidb.operator.controller.runtime.Conditions;
import io.tidb.operator.controller.runtime.OwnedEventSources;
import io.tidb.operator.controller.runtime.ReconcileWork;
import io.tidb.operator.controller.runtime.ResourceContext;
import io.tidb.operator.controller.runtime.ValidCondition;
import io.tidb.operator.controller.runtime.WorkOutcome;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * One reconcile of a valid TidbInitializer. A completed one is left alone for good (no read, no
 * write), so it never runs twice, whatever happens to its Job. Otherwise: while its Job exists,
 * its status is mirrored and its phase followed; with no Job, the named objects are checked
 * ({@link InitializerReferences}), then TiDB must be up ({@link InitializerProgress#tidbNotUp}),
 * then the Job is created ({@link InitializerJob}). A failed initializer runs again only after its
 * Job is deleted.
 */
public final class TidbInitializerWork implements ReconcileWork<TidbInitializer, TidbInitializerStatus> {

  /** The condition whose reason and message explain the phase. */
  public static final String INITIALIZED = "Initialized";

  /** The Job's condition types, mirrored into the status. */
  static final Set<String> JOB_CONDITIONS =
      Set.of("Complete", "Failed", "Suspended", "FailureTarget", "SuccessCriteriaMet");

  private final InitializerSettings settings;
  private final InitializerLookups lookups;

  public TidbInitializerWork(InitializerSettings settings, InitializerLookups lookups) {
    this.settings = settings;
    this.lookups = lookups;
  }

  /** Started on the first TidbInitializer: a namespace without one lists and watches none of them. */
  @Override
  public boolean ownedInformersOnFirstResource() {
    return true;
  }

  @Override
  public List<EventSource<?, TidbInitializer>> eventSources(EventSourceContext<TidbInitializer> context) {
    return OwnedEventSources.owned(context, List.<Class<? extends HasMetadata>>of(Job.class));
  }

  @Override
  public WorkOutcome work(ResourceContext<TidbInitializer, TidbInitializerStatus> ctx) {
    TidbInitializerStatus status = ctx.status();
    if (InitializePhase.COMPLETED.is(status.getPhase())) {
      return WorkOutcome.converged();
    }
    TidbInitializerSpec spec = ctx.resource().getSpec();
    String jobName = InitializerJob.name(spec.getCluster().getName());
    Optional<Job> job = ctx.owned().get(Job.class, jobName);
    if (job.isPresent()) {
      if (!ownedBy(job.get(), ctx.stored())) {
        return pending(ctx, InitializerProgress.REASON_JOB_CONFLICT,
            "Job " + jobName + " exists and belongs to someone else (another TidbInitializer of cluster "
                + spec.getCluster().getName() + "?)");
      }
      return follow(ctx, job.get());
    }

    String ns = ctx.namespace();
    Optional<TidbCluster> cluster = lookups.cluster(ns, spec.getCluster().getName());
    Optional<Secret> secret =
        spec.getPasswordSecret() == null ? Optional.empty() : lookups.secret(ns, spec.getPasswordSecret());
    Optional<ConfigMap> sql =
        spec.getInitSqlConfigMap() == null ? Optional.empty() : lookups.configMap(ns, spec.getInitSqlConfigMap());
    List<Violation> violations = InitializerReferences.check(ns, spec, cluster, secret, sql);
    if (!violations.isEmpty()) {
      invalidReferences(ctx, violations);
      return pending(ctx, InitializerProgress.REASON_REFERENCES,
          "waiting for the objects the spec names: " + ValidCondition.message(violations));
    }
    Optional<String> waiting = InitializerProgress.tidbNotUp(cluster.get());
    if (waiting.isPresent()) {
      return pending(ctx, InitializerProgress.REASON_WAITING, waiting.get());
    }
    Job desired = InitializerJob.build(ctx.stored(), cluster.get(), InitializerReferences.users(secret), settings);
    ctx.apply(desired);
    setPhase(ctx, new InitializerProgress.Verdict(
        InitializePhase.RUNNING, InitializerProgress.REASON_RUNNING, "Job " + jobName + " created"));
    return WorkOutcome.converging("job", "Job " + jobName + " to finish");
  }

  private WorkOutcome follow(ResourceContext<TidbInitializer, TidbInitializerStatus> ctx, Job job) {
    boolean failed = hasTrue(job, "Failed");
    Optional<String> message =
        failed ? lookups.failureMessage(ctx.namespace(), job.getMetadata().getName()) : Optional.empty();
    InitializerProgress.Verdict verdict = InitializerProgress.ofJob(job, message);
    String before = ctx.status().getPhase();
    mirror(ctx, job.getStatus());
    setPhase(ctx, verdict);
    if (!verdict.phase().is(before)) {
      if (verdict.phase() == InitializePhase.COMPLETED) {
        ctx.events().normal(ctx.stored(), "Initialized",
            "TidbCluster " + ctx.resource().getSpec().getCluster().getName() + " initialized");
      } else if (verdict.phase() == InitializePhase.FAILED) {
        ctx.events().warning(ctx.stored(), InitializerProgress.REASON_FAILED, verdict.message());
      }
    }
    return verdict.phase() == InitializePhase.RUNNING
        ? WorkOutcome.converging("job", "Job " + job.getMetadata().getName() + " to finish")
        : WorkOutcome.converged();
  }

  private WorkOutcome pending(
      ResourceContext<TidbInitializer, TidbInitializerStatus> ctx, String reason, String message) {
    setPhase(ctx, new InitializerProgress.Verdict(InitializePhase.PENDING, reason, message));
    return WorkOutcome.converging("pending", message);
  }

  private static void setPhase(
      ResourceContext<TidbInitializer, TidbInitializerStatus> ctx, InitializerProgress.Verdict verdict) {
    TidbInitializerStatus status = ctx.status();
    status.setPhase(verdict.phase().value());
    status.setConditions(Conditions.set(
        status.getConditions(),
        INITIALIZED,
        verdict.phase() == InitializePhase.COMPLETED ? Conditions.TRUE : Conditions.FALSE,
        verdict.reason(),
        verdict.message(),
        ctx.generation(),
        ctx.now()));
  }

  /**
   * A named object is missing or lacks its key: condition {@code Valid=False} with every
   * violation, and one Warning Event per distinct message, as for a spec that fails validation.
   */
  private static void invalidReferences(
      ResourceContext<TidbInitializer, TidbInitializerStatus> ctx, List<Violation> violations) {
    String message = ValidCondition.message(violations);
    TidbInitializerStatus stored = ctx.stored().getStatus();
    boolean reported = stored != null && Conditions.find(stored.getConditions(), ValidCondition.TYPE)
        .filter(c -> Conditions.FALSE.equals(c.getStatus()) && Objects.equals(message, c.getMessage()))
        .isPresent();
    ctx.status().setConditions(Conditions.set(
        ctx.status().getConditions(), ValidCondition.TYPE, Conditions.FALSE,
        ValidCondition.REASON_INVALID, message, ctx.generation(), ctx.now()));
    if (!reported) {
      ctx.events().warning(ctx.stored(), ValidCondition.REASON_INVALID, message);
    }
  }

  /** Upstream's status is the Job's status inline; its conditions join ours. */
  private static void mirror(ResourceContext<TidbInitializer, TidbInitializerStatus> ctx, JobStatus job) {
    TidbInitializerStatus s = ctx.status();
    JobStatus j = job == null ? new JobStatus() : job;
    s.setActive(j.getActive());
    s.setCompletedIndexes(j.getCompletedIndexes());
    s.setCompletionTime(j.getCompletionTime());
    s.setFailed(j.getFailed());
    s.setFailedIndexes(j.getFailedIndexes());
    s.setReady(j.getReady());
    s.setStartTime(j.getStartTime());
    s.setSucceeded(j.getSucceeded());
    s.setTerminating(j.getTerminating());
    s.setUncountedTerminatedPods(j.getUncountedTerminatedPods());
    List<Condition> conditions = new ArrayList<>();
    if (s.getConditions() != null) {
      s.getConditions().stream().filter(c -> !JOB_CONDITIONS.contains(c.getType())).forEach(conditions::add);
    }
    if (j.getConditions() != null) {
      for (JobCondition c : j.getConditions()) {
        Condition copy = new Condition();
        copy.setType(c.getType());
        copy.setStatus(c.getStatus());
        copy.setReason(c.getReason());
        copy.setMessage(c.getMessage());
        copy.setLastTransitionTime(c.getLastTransitionTime());
        conditions.add(copy);
      }
    }
    s.setConditions(conditions.isEmpty() ? null : conditions);
  }

  private static boolean hasTrue(Job job, String type) {
    return job.getStatus() != null && job.getStatus().getConditions() != null
        && job.getStatus().getConditions().stream()
            .anyMatch(c -> type.equals(c.getType()) && "True".equals(c.getStatus()));
  }

  private static boolean ownedBy(Job job, TidbInitializer ti) {
    List<OwnerReference> refs = job.getMetadata().getOwnerReferences();
    return refs != null && refs.stream()
        .anyMatch(r -> Boolean.TRUE.equals(r.getController()) && Objects.equals(r.getUid(), ti.getMetadata().getUid()));
  }
}
