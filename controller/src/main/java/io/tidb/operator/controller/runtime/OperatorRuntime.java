package io.tidb.operator.controller.runtime;

import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Constants;
import io.javaoperatorsdk.operator.monitoring.micrometer.MicrometerMetrics;
import io.javaoperatorsdk.operator.processing.retry.GenericRetry;
import io.micrometer.core.instrument.MeterRegistry;
import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.controller.config.ControllerSettings;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operator process's JOSDK {@link Operator} with every controller of the process registered,
 * each with the same configuration from {@link ControllerSettings}: field manager, generation
 * awareness, heartbeat, retry, watched namespaces. The Kubernetes client is the caller's;
 * stopping the operator does not close it.
 */
public final class OperatorRuntime implements AutoCloseable {

  /**
   * How long a Lease stays held without renewal. A leader that dies without releasing it (SIGKILL,
   * node loss) is replaced once it has expired: a standby asks every {@link #RETRY_PERIOD} (fabric8
   * adds up to 120 % jitter), so it holds the Lease at most 10 + 2.2 s after the leader's last
   * renewal and reconciles a moment later, within 15 s of the kill (LeaderTakeoverIT). Upstream's
   * 15 s lease with a 2 s retry took 15 to 17 s.
   */
  static final Duration LEASE_DURATION = Duration.ofSeconds(10);

  /**
   * How long a leader keeps trying to renew before it gives up and exits; shorter than the lease,
   * so it stops before a standby may take over.
   */
  static final Duration RENEW_DEADLINE = Duration.ofSeconds(7);

  /** How often a leader renews and a standby tries to acquire (fabric8 adds jitter). */
  static final Duration RETRY_PERIOD = Duration.ofSeconds(1);

  /**
   * How long a stop waits for running reconciles before it closes the informers anyway: within
   * the pod's 30 s termination grace period, with room for the rest of the stop.
   */
  static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(20);

  private static final Logger LOG = LoggerFactory.getLogger(OperatorRuntime.class);

  private final Operator operator;
  private final List<ReconcileGate> gates;

  private OperatorRuntime(Operator operator, List<ReconcileGate> gates) {
    this.operator = operator;
    this.gates = gates;
  }

  /**
   * Builds the operator with {@code controllers} registered; call {@link #start()} to run it.
   */
  public static OperatorRuntime create(
      ControllerSettings settings,
      KubernetesClient client,
      MeterRegistry registry,
      List<? extends ValidatingReconciler<?, ?>> controllers) {
    // Of the objects read from here on, only the operator's own apply entry of managedFields is
    // read (the one entry it compares with, PrunedItemStore); the others' field sets are skipped
    // as they are parsed, not built and thrown away.
    ApiObjects.keepOnlyManagedFieldsOf(ServerSideApplier.FIELD_MANAGER);
    // A custom resource the model cannot hold is read as a stand-in (ValidatingReconciler leaves
    // it alone and says why): failing its read stopped the informer, and JOSDK the process.
    ApiObjects.readUnreadableResourcesAsStandIns();
    Operator operator =
        new Operator(
            o -> {
              o.withKubernetesClient(client)
                  .withCloseClientOnStop(false)
                  .withConcurrentReconciliationThreads(settings.workers())
                  .withMetrics(MicrometerMetrics.withoutPerResourceMetrics(registry))
                  .withUseSSAToPatchPrimaryResource(true)
                  .withResourceCloner(new PrimaryCloner(client.getKubernetesSerialization(),
                      controllers.stream()
                          .filter(ValidatingReconciler::readsPrimaryOnly)
                          .<Class<?>>map(ValidatingReconciler::resourceType)
                          .collect(Collectors.toSet())));
              settings
                  .leaderElection()
                  .ifPresent(
                      le ->
                          o.withLeaderElectionConfiguration(
                              new LeaderElectionConfiguration(
                                  le.leaseName(),
                                  le.leaseNamespace(),
                                  LEASE_DURATION,
                                  RENEW_DEADLINE,
                                  RETRY_PERIOD,
                                  settings.identity(),
                                  null,
                                  true)));
            });
    for (ValidatingReconciler<?, ?> controller : controllers) {
      register(operator, controller, settings);
    }
    return new OperatorRuntime(operator, controllers.stream().map(ValidatingReconciler::gate).toList());
  }

  private static <P extends CustomResource<?, S>, S> void register(
      Operator operator, ValidatingReconciler<P, S> controller, ControllerSettings settings) {
    operator.register(
        controller,
        c -> {
          Set<String> namespaces = settings.watchAllNamespaces()
              ? Constants.WATCH_ALL_NAMESPACE_SET
              : settings.namespaces();
          c.withName(controller.name())
              .withFieldManager(ServerSideApplier.FIELD_MANAGER)
              .withGenerationAware(true)
              .settingNamespaces(namespaces)
              .withItemStore(PrunedItemStore.forNamespaces(namespaces))
              .withReconciliationMaxInterval(settings.resync())
              .withRetry(retry())
              .withRateLimiter(new ReconcileSpacing(settings.reconcileSpacing()));
        });
  }
  /**
   * A failed reconcile is retried after 1 s, doubling up to {@link #RETRY_MAX_INTERVAL}, without
   * limit; a new event for the resource runs it at once instead.
   */
  static GenericRetry retry() {
    return new GenericRetry()
        .setInitialInterval(Duration.ofSeconds(1))
        .setIntervalMultiplier(2)
        .setMaxInterval(RETRY_MAX_INTERVAL.toMillis())
        .withoutMaxAttempts();
  }

  /**
   * The longest wait before a failed reconcile is retried. Upstream's work queue waits up to 100 s,
   * so after an API server outage of a few minutes a cluster whose reconciles kept failing (and
   * which gets no new event) would wait that long once the API server is back; 10 s bounds it,
   * for a retry every 10 s of a cluster that keeps failing.
   */
  static final Duration RETRY_MAX_INTERVAL = Duration.ofSeconds(10);

  public void start() {
    operator.start();
  }

  public Operator operator() {
    return operator;
  }

  /** Started, and (when leading) every informer is healthy. */
  public boolean live() {
    return operator.getRuntimeInfo().isStarted()
        && operator.getRuntimeInfo().allEventSourcesAreHealthy();
  }

  public boolean ready() {
    return operator.getRuntimeInfo().isStarted();
  }

  /**
   * Stops: first no new reconcile starts ({@link ReconcileGate}) and those running finish on live
   * caches (up to {@link #DRAIN_TIMEOUT}), then JOSDK stops the informers and threads.
   */
  @Override
  public void close() {
    drain(gates, DRAIN_TIMEOUT);
    operator.stop();
  }

  /** Closes every gate, then waits for all of them to drain within {@code timeout} in total. */
  static void drain(List<ReconcileGate> gates, Duration timeout) {
    gates.forEach(ReconcileGate::close);
    long deadline = System.nanoTime() + timeout.toNanos();
    int left = 0;
    try {
      for (ReconcileGate gate : gates) {
        left += gate.awaitDrained(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (left > 0) {
      LOG.warn("event=stop_drain_timeout running={} timeout={}", left, timeout);
    }
  }
}
