package io.tidb.operator.controller.reconcile;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ErrorStatusUpdateControl;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.PrimaryUpdateAndCacheUtils;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.cluster.TidbClusterStatus;
import io.tidb.operator.api.validation.AdmissionRules;
import io.tidb.operator.api.validation.Violation;
import io.tidb.operator.controller.apply.ResourceApplier;
import io.tidb.operator.controller.event.EventRecorder;
import io.tidb.operator.controller.metrics.ReconcileMetrics;
import io.tidb.operator.controller.pipeline.ClusterContext;
import io.tidb.operator.controller.pipeline.ClusterEndpoints;
import io.tidb.operator.controller.pipeline.ClusterPipeline;
import io.tidb.operator.controller.pipeline.StepFailedException;
import io.tidb.operator.controller.status.Conditions;
import io.tidb.operator.controller.status.ReadyCondition;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reconciles one {@code TidbCluster}: defaults it in memory, validates it with the webhook's rules,
 * runs the component pipeline (unless invalid), and writes status only when it changed.
 *
 * <ul>
 *   <li><b>Invalid spec:</b> condition {@code Valid=False} listing every violation and a Warning
 *       Event {@code FailedValidation} (once per distinct message); nothing else is touched.
 *   <li><b>Paused:</b> the pipeline observes (status stays true to PD) but writes nothing.
 *   <li><b>Still converging:</b> a step's prerequisite is unmet; the reconcile ends normally and is
 *       rescheduled soon. Real errors are thrown, and the framework retries them with backoff.
 * </ul>
 */
public final class TidbClusterReconciler implements Reconciler<TidbCluster> {

  /** The controller's name: JOSDK's, and the one in metrics. */
  public static final String NAME = "tidbcluster";

  private static final Logger LOG = LoggerFactory.getLogger(TidbClusterReconciler.class);

  private final AdmissionRules<TidbCluster> rules;
  private final ClusterPipeline pipeline;
  private final ResourceApplier applier;
  private final EventRecorder events;
  private final Function<TidbCluster, ClusterEndpoints> endpoints;
  private final ReconcileMetrics metrics;
  private final Clock clock;
  private final Duration convergingRequeue;

  public TidbClusterReconciler(
      AdmissionRules<TidbCluster> rules,
      ClusterPipeline pipeline,
      ResourceApplier applier,
      EventRecorder events,
      Function<TidbCluster, ClusterEndpoints> endpoints,
      ReconcileMetrics metrics,
      Clock clock,
      Duration convergingRequeue) {
    this.rules = rules;
    this.pipeline = pipeline;
    this.applier = applier;
    this.events = events;
    this.endpoints = endpoints;
    this.metrics = metrics;
    this.clock = clock;
    this.convergingRequeue = convergingRequeue;
  }

  @Override
  public List<EventSource<?, TidbCluster>> prepareEventSources(
      EventSourceContext<TidbCluster> context) {
    return OwnedEventSources.create(context);
  }

  @Override
  public UpdateControl<TidbCluster> reconcile(TidbCluster stored, Context<TidbCluster> context)
      throws Exception {
    Instant now = clock.instant();
    Long generation = stored.getMetadata().getGeneration();
    TidbClusterStatus current =
        stored.getStatus() == null ? new TidbClusterStatus() : stored.getStatus();
    TidbClusterStatus next = ApiObjects.deepCopy(current);
    next.setObservedGeneration(generation);

    TidbCluster cluster = rules.withDefaults(stored);
    List<Violation> violations = rules.validateCreate(cluster);
    if (!violations.isEmpty()) {
      return invalid(stored, context, current, next, violations, now);
    }
    next.setConditions(
        Conditions.set(
            next.getConditions(),
            ValidCondition.TYPE,
            Conditions.TRUE,
            ValidCondition.REASON_VALID,
            "spec passed validation",
            generation,
            now));

    ClusterContext ctx =
        new ClusterContext(
            cluster,
            next,
            new InformerOwnedObjects(context, stored.getMetadata().getNamespace()),
            applier,
            events,
            endpoints.apply(cluster),
            now);
    ClusterPipeline.Outcome outcome = pipeline.run(ctx);

    ReadyCondition.Verdict ready = ReadyCondition.evaluate(next, ctx.observedComponents());
    next.setConditions(
        Conditions.set(
            next.getConditions(),
            ReadyCondition.TYPE,
            ready.status(),
            ready.reason(),
            ready.message(),
            generation,
            now));

    String result =
        outcome.converging() ? "converging" : ctx.paused() ? "paused" : "converged";
    metrics.reconciled(result, outcome.step());
    LOG.debug(
        "reconciled namespace={} cluster={} result={} step={} ready={}",
        stored.getMetadata().getNamespace(),
        stored.getMetadata().getName(),
        result,
        outcome.step(),
        ready.reason());
    writeStatusIfChanged(stored, context, current, next);
    UpdateControl<TidbCluster> control = UpdateControl.noUpdate();
    return outcome.converging() ? control.rescheduleAfter(convergingRequeue) : control;
  }

  private UpdateControl<TidbCluster> invalid(
      TidbCluster stored,
      Context<TidbCluster> context,
      TidbClusterStatus current,
      TidbClusterStatus next,
      List<Violation> violations,
      Instant now) {
    String message = ValidCondition.message(violations);
    boolean alreadyReported =
        Conditions.find(current.getConditions(), ValidCondition.TYPE)
            .filter(c -> Conditions.FALSE.equals(c.getStatus()))
            .filter(c -> Objects.equals(message, c.getMessage()))
            .isPresent();
    next.setConditions(
        Conditions.set(
            next.getConditions(),
            ValidCondition.TYPE,
            Conditions.FALSE,
            ValidCondition.REASON_INVALID,
            message,
            stored.getMetadata().getGeneration(),
            now));
    if (!alreadyReported) {
      events.warning(stored, ValidCondition.REASON_INVALID, message);
    }
    metrics.reconciled("invalid", "validation");
    LOG.info(
        "invalid spec namespace={} cluster={} violations={}",
        stored.getMetadata().getNamespace(),
        stored.getMetadata().getName(),
        violations.size());
    writeStatusIfChanged(stored, context, current, next);
    return UpdateControl.noUpdate();
  }

  /**
   * Server-side applies {@code next} as the whole status when it differs from {@code current},
   * with optimistic locking, and caches the result so the next reconcile compares against it.
   */
  private static void writeStatusIfChanged(
      TidbCluster stored,
      Context<TidbCluster> context,
      TidbClusterStatus current,
      TidbClusterStatus next) {
    if (Objects.equals(current, next)) {
      return;
    }
    TidbCluster fresh = new TidbCluster();
    fresh.setMetadata(
        new ObjectMetaBuilder()
            .withName(stored.getMetadata().getName())
            .withNamespace(stored.getMetadata().getNamespace())
            .build());
    fresh.setStatus(next);
    PrimaryUpdateAndCacheUtils.ssaPatchStatusAndCacheResource(stored, fresh, context);
  }

  @Override
  public ErrorStatusUpdateControl<TidbCluster> updateErrorStatus(
      TidbCluster resource, Context<TidbCluster> context, Exception e) {
    Optional<StepFailedException> failed = stepFailure(e);
    String step = failed.map(StepFailedException::step).orElse("reconcile");
    Throwable cause = failed.<Throwable>map(Throwable::getCause).orElse(e);
    metrics.reconciled("error", step);
    LOG.warn(
        "reconcile failed namespace={} cluster={} step={} attempt={} error=\"{}\"",
        resource.getMetadata().getNamespace(),
        resource.getMetadata().getName(),
        step,
        context.getRetryInfo().map(r -> r.getAttemptCount()).orElse(1),
        Optional.ofNullable(cause).map(Throwable::toString).orElse("unknown"));
    return ErrorStatusUpdateControl.defaultErrorProcessing();
  }

  /** The framework wraps what {@link #reconcile} throws; find the failed step in the chain. */
  private static Optional<StepFailedException> stepFailure(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof StepFailedException f) {
        return Optional.of(f);
      }
    }
    return Optional.empty();
  }
}
