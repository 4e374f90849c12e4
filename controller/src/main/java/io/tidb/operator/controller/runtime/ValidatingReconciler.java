package io.tidb.operator.controller.runtime;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.CustomResource;
import io.javaoperatorsdk.operator.api.reconciler.Cleaner;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;
import io.javaoperatorsdk.operator.api.reconciler.ErrorStatusUpdateControl;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.PrimaryUpdateAndCacheUtils;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.tidb.operator.api.UnreadableResources;
import io.tidb.operator.api.validation.AdmissionRules;
import io.tidb.operator.api.validation.Violation;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The reconcile skeleton every controller shares; it knows no custom resource kind.
 *
 * <ol>
 *   <li><b>Settled resources wait on start:</b> the process's first reconcile of a resource that
 *       is Ready at its generation is rescheduled a second or few later ({@link StartupOrder}), so
 *       new and changed resources are reconciled first after a restart.
 *   <li><b>Default</b> the stored object in memory with the webhook's rules (never written back).
 *   <li><b>Validate</b> that copy with the <em>stored-object</em> rules ({@link
 *       AdmissionRules#validateStoredDefaulted}): an object admitted under an older operator keeps
 *       being reconciled even if it uses a field that is refused on create today.
 *   <li><b>Invalid:</b> condition {@code Valid=False} listing every violation, a Warning Event
 *       {@code FailedValidation} once per distinct message, and nothing else touched.
 *   <li><b>Work:</b> the controller's {@link ReconcileWork} on the defaulted object; the objects
 *       it wrote are told in one Event per verb ({@link WrittenObjects}), even when it fails.
 *   <li><b>Status</b> is server-side applied from a fresh object, and only when it changed: a
 *       reconcile with nothing to do writes nothing.
 *   <li><b>Converged with a recheck</b> ({@link WorkOutcome#convergedRecheckAfter}) reschedules
 *       after the period the work names: state outside the cluster's objects that changes without
 *       any event (a log backup's checkpoint in PD) is read again then.
 *   <li><b>Still converging</b> reschedules after a short delay (not an error); exceptions are
 *       real errors and the framework retries them with backoff. The status the work built up to
 *       the failure is still written, so conditions can say why.
 * </ol>
 *
 * <p><b>Owned informers on demand.</b> A controller whose work says so ({@link
 * ReconcileWork#ownedInformersOnFirstResource}) starts the informers of its owned objects on its
 * first reconcile or clean-up instead of with the operator: that call registers them with JOSDK
 * ({@code dynamicallyRegisterEventSource}), which lists and starts each before it returns, and the
 * calls that come meanwhile wait for it. Objects that already exist then raise events for their
 * primaries as at start. Until then the controller lists and watches only its own kind: with 30
 * clusters and none of the other six kinds, the six controllers' 25 or so informers cost about
 * 0.35 s of CPU at every start.
 *
 * <p>Abstract only because JOSDK reads the resource class from the reconciler's generic
 * superclass: each controller declares a one-line concrete subclass binding {@code P} and {@code
 * S} (e.g. {@code TidbClusterReconciler}); all behaviour is here.
 *
 * @param <P> the custom resource
 * @param <S> its status
 */
public abstract class ValidatingReconciler<P extends CustomResource<?, S>, S>
    implements Reconciler<P> {

  private static final Logger LOG = LoggerFactory.getLogger(ValidatingReconciler.class);

  /** The Event reason of a resource the model could not read. */
  public static final String REASON_UNREADABLE = "Unreadable";

  /** How many unreadable resources' reported versions are kept (then forgotten at once). */
  private static final int UNREADABLE_REPORTS_KEPT = 1024;

  private final String name;
  private final AdmissionRules<P> rules;
  private final StatusAccess<S> statuses;
  private final ReconcileWork<P, S> work;
  private final Applier applier;
  private final EventRecorder events;
  private final ReconcileMetrics metrics;
  private final Clock clock;
  private final Duration convergingRequeue;
  private final boolean detectCacheMutations = CacheMutationDetector.enabled(System.getenv());
  private final ReconcileGate gate = new ReconcileGate();
  private final StartupOrder startupOrder;
  private final DefaultedPrimaries<P> defaulted =
      new DefaultedPrimaries<>(DefaultedPrimaries.DEFAULT_CAPACITY);
  private final Object ownedRegistration = new Object();
  /** The version of each unreadable resource (by uid) whose Event was sent. */
  private final Map<String, String> unreadableReported = new ConcurrentHashMap<>();
  /** Owned informers not yet started ({@link ReconcileWork#ownedInformersOnFirstResource}); null once started. */
  private volatile List<EventSource<?, P>> pendingOwned;

  /**
   * @param name the controller's name: JOSDK's, and the {@code controller} tag of the metrics
   * @param rules the same admission rules the webhook serves
   */
  protected ValidatingReconciler(
      String name,
      AdmissionRules<P> rules,
      StatusAccess<S> statuses,
      ReconcileWork<P, S> work,
      RuntimeServices services,
      Duration convergingRequeue) {
    this.name = name;
    this.rules = rules;
    this.statuses = statuses;
    this.work = work;
    this.applier = services.applier();
    this.events = services.events();
    this.metrics = services.metrics();
    this.clock = services.clock();
    this.startupOrder = new StartupOrder();
    this.convergingRequeue = convergingRequeue;
  }

  public String name() {
    return name;
  }

  /** The custom resource this controller reconciles. */
  public Class<P> resourceType() {
    return rules.resourceType();
  }

  /**
   * Whether the primary JOSDK hands to {@link #reconcile} may be its cached object rather than a
   * copy ({@link PrimaryCloner}): this skeleton never changes it (it copies the status it builds
   * and defaults a copy), and JOSDK changes it only for finalizers, which a controller without a
   * clean-up ({@code Cleaner}) never has.
   */
  public boolean readsPrimaryOnly() {
    return !(this instanceof Cleaner);
  }

  /** The gate this controller's reconciles and clean-ups pass; {@link OperatorRuntime} closes it first on stop. */
  ReconcileGate gate() {
    return gate;
  }

  @Override
  public List<EventSource<?, P>> prepareEventSources(EventSourceContext<P> context) {
    List<EventSource<?, P>> sources = work.eventSources(context);
    if (!work.ownedInformersOnFirstResource() || sources.isEmpty()) {
      return sources;
    }
    pendingOwned = List.copyOf(sources);
    return List.of();
  }

  /** Whether this controller's owned informers are started ({@link #startOwnedInformers}). */
  boolean ownedInformersStarted() {
    return pendingOwned == null;
  }

  /**
   * Starts the owned informers put off by {@link #prepareEventSources}, once: JOSDK lists and
   * starts each before this returns; concurrent callers wait.
   */
  private void startOwnedInformers(Context<P> context) {
    if (pendingOwned == null) {
      return;
    }
    synchronized (ownedRegistration) {
      List<EventSource<?, P>> pending = pendingOwned;
      if (pending == null) {
        return;
      }
      for (EventSource<?, P> source : pending) {
        context.eventSourceRetriever().dynamicallyRegisterEventSource(source);
      }
      pendingOwned = null;
      LOG.info("owned informers started on the first resource controller={} informers={}",
          name, pending.size());
    }
  }

  /**
   * Runs the skeleton unless the process is stopping ({@link ReconcileGate}): a reconcile that
   * starts after the stop began does nothing, and the next leader (or this one, restarted)
   * reconciles the resource on its start.
   */
  @Override
  public UpdateControl<P> reconcile(P stored, Context<P> context) throws Exception {
    Optional<String> unreadable = UnreadableResources.reason(stored);
    if (unreadable.isPresent()) {
      reportUnreadable(stored, unreadable.get());
      return UpdateControl.noUpdate();
    }
    if (!gate.enter()) {
      LOG.debug("stopping: reconcile not started controller={} namespace={} name={}", name,
          stored.getMetadata().getNamespace(), stored.getMetadata().getName());
      return UpdateControl.noUpdate();
    }
    try {
      return reconcileChecked(stored, context);
    } finally {
      gate.exit();
    }
  }

  /**
   * {@link #reconcileOpen}, and with the cache mutation detector on, a check that it left the
   * primary as it was: JOSDK hands some controllers the cached object itself ({@link
   * #readsPrimaryOnly}).
   */
  private UpdateControl<P> reconcileChecked(P stored, Context<P> context) throws Exception {
    String before = CacheMutationDetector.snapshot(stored, detectCacheMutations);
    UpdateControl<P> control;
    try {
      startOwnedInformers(context);
      control = reconcileOpen(stored, context);
    } catch (Exception e) {
      try {
        CacheMutationDetector.verifyUnchanged(stored, before);
      } catch (IllegalStateException mutation) {
        e.addSuppressed(mutation);
      }
      throw e;
    }
    CacheMutationDetector.verifyUnchanged(stored, before);
    return control;
  }

  /**
   * Runs a controller's clean-up of a deleted resource ({@code Cleaner#cleanup}) through the same
   * gate: while the process stops it keeps the finalizer and does nothing.
   */
  protected final DeleteControl gatedCleanup(
      P stored, Context<P> context, java.util.function.Supplier<DeleteControl> cleanup) {
    if (!gate.enter()) {
      LOG.debug("stopping: clean-up not started controller={} namespace={} name={}", name,
          stored.getMetadata().getNamespace(), stored.getMetadata().getName());
      return DeleteControl.noFinalizerRemoval();
    }
    try {
      Optional<String> unreadable = UnreadableResources.reason(stored);
      if (unreadable.isPresent()) {
        reportUnreadable(stored, unreadable.get());
        return DeleteControl.noFinalizerRemoval();
      }
      startOwnedInformers(context);
      return cleanup.get();
    } finally {
      gate.exit();
    }
  }

  private UpdateControl<P> reconcileOpen(P stored, Context<P> context) throws Exception {
    Instant now = clock.instant();
    Long generation = stored.getMetadata().getGeneration();
    S current = stored.getStatus() == null ? statuses.empty() : stored.getStatus();
    Optional<Duration> deferred =
        startupOrder.deferral(now, stored.getMetadata().getUid(), generation, statuses.conditions(current));
    if (deferred.isPresent()) {
      LOG.debug("settled: first reconcile deferred controller={} namespace={} name={} after={}",
          name, stored.getMetadata().getNamespace(), stored.getMetadata().getName(), deferred.get());
      return UpdateControl.<P>noUpdate().rescheduleAfter(deferred.get());
    }
    S next = statuses.copy(current);
    statuses.setObservedGeneration(next, generation);

    DefaultedPrimaries.Judged<P> judged =
        defaulted.of(stored, s -> {
          P copy = rules.withDefaults(s);
          return new DefaultedPrimaries.Judged<>(copy, rules.validateStoredDefaulted(copy),
              new DerivedObjects(detectCacheMutations));
        });
    P resource = judged.defaulted();
    List<Violation> violations = judged.violations();
    if (!violations.isEmpty()) {
      return invalid(stored, context, current, next, violations, now);
    }
    statuses.setConditions(
        next,
        Conditions.set(
            statuses.conditions(next),
            ValidCondition.TYPE,
            Conditions.TRUE,
            ValidCondition.REASON_VALID,
            "spec passed validation",
            generation,
            now));

    OwnedObjects owned = CacheMutationDetector.watch(
        new InformerOwnedObjects<>(context, stored.getMetadata().getNamespace()),
        detectCacheMutations);
    ResourceContext<P, S> ctx =
        new ResourceContext<>(stored, resource, judged.derived(), next, owned, applier, events, now);
    String resourceBefore = CacheMutationDetector.snapshot(resource, detectCacheMutations);
    WorkOutcome outcome;
    try {
      outcome = work.work(ctx);
    } catch (Exception e) {
      // What the work wrote and observed, and its conditions (which say why it failed), still
      // reach the user; the framework then retries with backoff.
      ctx.recordWrites();
      try {
        CacheMutationDetector.verify(owned);
        CacheMutationDetector.verifyDefaultedUnchanged(resource, resourceBefore);
        judged.derived().verifyUnchanged();
      } catch (IllegalStateException mutation) {
        e.addSuppressed(mutation);
      }
      writeStatusIfChanged(stored, context, current, next);
      throw e;
    }
    ctx.recordWrites();
    CacheMutationDetector.verify(owned);
    CacheMutationDetector.verifyDefaultedUnchanged(resource, resourceBefore);
    judged.derived().verifyUnchanged();
    metrics.reconciled(name, outcome.result(), outcome.step());
    LOG.debug(
        "reconciled controller={} namespace={} name={} result={} step={}",
        name,
        stored.getMetadata().getNamespace(),
        stored.getMetadata().getName(),
        outcome.result(),
        outcome.step());
    writeStatusIfChanged(stored, context, current, next);
    UpdateControl<P> control = UpdateControl.noUpdate();
    return outcome.requeueAfter(convergingRequeue).map(control::rescheduleAfter).orElse(control);
  }

  /**
   * A resource the model could not read ({@link UnreadableResources}): its spec and status are
   * unknown, so nothing is done with it, not even a status write (applying a status built from
   * nothing would drop the fields the operator owns in the stored one); the clean-up of a deleted
   * one keeps its finalizer. A Warning Event, once per version, says which field and what is
   * allowed; a corrected version is reconciled as any update.
   */
  private void reportUnreadable(P stored, String reason) {
    String uid = stored.getMetadata().getUid();
    String version = stored.getMetadata().getResourceVersion();
    metrics.reconciled(name, "unreadable", "read");
    if (uid == null || version.equals(unreadableReported.put(uid, version))) {
      return;
    }
    if (unreadableReported.size() > UNREADABLE_REPORTS_KEPT) {
      unreadableReported.clear();
      unreadableReported.put(uid, version);
    }
    String kind = stored.getKind();
    events.warning(stored, REASON_UNREADABLE, "cannot read this " + kind + ": " + reason
        + "; the operator leaves it and what it runs as they are until the field is corrected");
    // the reason quotes the object's text: control characters out, so it cannot forge a line
    LOG.warn("unreadable resource left alone controller={} namespace={} name={} resourceVersion={} reason=\"{}\"",
        name, stored.getMetadata().getNamespace(), stored.getMetadata().getName(), version,
        reason.replaceAll("\\p{Cntrl}", "?"));
  }

  private UpdateControl<P> invalid(
      P stored, Context<P> context, S current, S next, List<Violation> violations, Instant now) {
    String message = ValidCondition.message(violations);
    boolean alreadyReported =
        Conditions.find(statuses.conditions(current), ValidCondition.TYPE)
            .filter(c -> Conditions.FALSE.equals(c.getStatus()))
            .filter(c -> Objects.equals(message, c.getMessage()))
            .isPresent();
    statuses.setConditions(
        next,
        Conditions.set(
            statuses.conditions(next),
            ValidCondition.TYPE,
            Conditions.FALSE,
            ValidCondition.REASON_INVALID,
            message,
            stored.getMetadata().getGeneration(),
            now));
    statuses.invalid(next);
    if (!alreadyReported) {
      events.warning(stored, ValidCondition.REASON_INVALID, message);
    }
    metrics.reconciled(name, "invalid", "validation");
    LOG.info(
        "invalid spec controller={} namespace={} name={} violations={}",
        name,
        stored.getMetadata().getNamespace(),
        stored.getMetadata().getName(),
        violations.size());
    writeStatusIfChanged(stored, context, current, next);
    return UpdateControl.noUpdate();
  }

  /**
   * Server-side applies {@code next} (the part {@link StatusAccess#applied} names) when it differs from {@code current},
   * from a fresh object that carries only name, namespace and status, and caches the result so
   * the next reconcile compares against it.
   */
  private void writeStatusIfChanged(P stored, Context<P> context, S current, S next) {
    if (Objects.equals(current, next)) {
      return;
    }
    P fresh = newResource();
    fresh.setMetadata(
        new ObjectMetaBuilder()
            .withName(stored.getMetadata().getName())
            .withNamespace(stored.getMetadata().getNamespace())
            .build());
    fresh.setStatus(statuses.applied(next));
    PrimaryUpdateAndCacheUtils.ssaPatchStatusAndCacheResource(stored, fresh, context);
  }

  private P newResource() {
    try {
      return rules.resourceType().getDeclaredConstructor().newInstance();
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(rules.resourceType() + " needs a public no-argument constructor", e);
    }
  }

  @Override
  public ErrorStatusUpdateControl<P> updateErrorStatus(P resource, Context<P> context, Exception e) {
    Optional<StepFailedException> failed = stepFailure(e);
    String step = failed.map(StepFailedException::step).orElse("reconcile");
    Throwable cause = failed.<Throwable>map(Throwable::getCause).orElse(e);
    metrics.reconciled(name, "error", step);
    LOG.warn(
        "reconcile failed controller={} namespace={} name={} step={} attempt={} error=\"{}\"",
        name,
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
