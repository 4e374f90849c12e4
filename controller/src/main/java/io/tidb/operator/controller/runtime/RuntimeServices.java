package io.tidb.operator.controller.runtime;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;

/**
 * What every controller in the process shares: the applier, the Event recorder, the reconcile
 * metrics and the clock.
 */
public record RuntimeServices(
    Applier applier, EventRecorder events, ReconcileMetrics metrics, Clock clock) {

  /** The real services over the API server. */
  public static RuntimeServices create(
      KubernetesClient client, MeterRegistry registry, String identity, Clock clock) {
    ReconcileMetrics metrics = new ReconcileMetrics(registry);
    return new RuntimeServices(
        new ServerSideApplier(client, metrics),
        new KubeEventRecorder(client, identity, clock, metrics),
        metrics,
        clock);
  }
}
