package io.tidb.operator.controller;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;
import io.javaoperatorsdk.operator.monitoring.micrometer.MicrometerMetrics;
import io.javaoperatorsdk.operator.processing.retry.GenericRetry;
import io.micrometer.core.instrument.MeterRegistry;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.validation.AdmissionRules;
import io.tidb.operator.controller.apply.ResourceApplier;
import io.tidb.operator.controller.config.ControllerSettings;
import io.tidb.operator.controller.event.EventRecorder;
import io.tidb.operator.controller.metrics.ReconcileMetrics;
import io.tidb.operator.controller.pipeline.ClusterPipeline;
import io.tidb.operator.controller.endpoints.PdTidbEndpoints;
import io.tidb.operator.controller.reconcile.TidbClusterReconciler;
import io.tidb.operator.controller.steps.ComponentSteps;
import java.time.Clock;
import java.time.Duration;

/**
 * The operator runtime: a JOSDK {@link Operator} with the {@code TidbCluster} controller
 * registered, configured from {@link ControllerSettings}. The Kubernetes client is the caller's;
 * stopping the operator does not close it.
 */
public final class TidbOperator implements AutoCloseable {

  /** Upstream's leader-election timings: lease 15 s, renew deadline 10 s, retry every 2 s. */
  static final Duration LEASE_DURATION = Duration.ofSeconds(15);

  static final Duration RENEW_DEADLINE = Duration.ofSeconds(10);
  static final Duration RETRY_PERIOD = Duration.ofSeconds(2);

  private final Operator operator;

  private TidbOperator(Operator operator) {
    this.operator = operator;
  }

  /**
   * Builds the operator; call {@link #start()} to run it.
   *
   * @param rules the same admission rules the webhook serves (defaulting and validation)
   */
  public static TidbOperator create(
      ControllerSettings settings,
      KubernetesClient client,
      MeterRegistry registry,
      AdmissionRules<TidbCluster> rules,
      Clock clock) {
    Operator operator =
        new Operator(
            o -> {
              o.withKubernetesClient(client)
                  .withCloseClientOnStop(false)
                  .withConcurrentReconciliationThreads(settings.workers())
                  .withMetrics(MicrometerMetrics.withoutPerResourceMetrics(registry))
                  .withUseSSAToPatchPrimaryResource(true);
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
    ReconcileMetrics metrics = new ReconcileMetrics(registry);
    EventRecorder events = new EventRecorder(client, settings.identity(), clock);
    PdTidbEndpoints endpoints = new PdTidbEndpoints(settings.endpoints());
    TidbClusterReconciler reconciler =
        new TidbClusterReconciler(
            rules,
            new ClusterPipeline(ComponentSteps.upstreamOrder(settings.discoveryImage())),
            new ResourceApplier(client, metrics),
            events,
            endpoints::forCluster,
            metrics,
            clock,
            settings.convergingRequeue());
    operator.register(
        reconciler,
        c -> {
          c.withName(TidbClusterReconciler.NAME)
              .withFieldManager(ResourceApplier.FIELD_MANAGER)
              .withGenerationAware(true)
              .withReconciliationMaxInterval(settings.resync())
              .withRetry(retry());
          if (settings.watchAllNamespaces()) {
            c.watchingAllNamespaces();
          } else {
            c.settingNamespaces(settings.namespaces());
          }
        });
    return new TidbOperator(operator);
  }

  /** Upstream's per-item backoff: 1 s doubling up to 100 s, retried without limit. */
  static GenericRetry retry() {
    return new GenericRetry()
        .setInitialInterval(Duration.ofSeconds(1))
        .setIntervalMultiplier(2)
        .setMaxInterval(Duration.ofSeconds(100).toMillis())
        .withoutMaxAttempts();
  }

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

  @Override
  public void close() {
    operator.stop();
  }
}
