package io.tidb.operator.controller.runtime;

import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes {@code core/v1} Events through the API server, the way {@code kubectl describe}
 * shows them. Failing to record an Event is logged and never fails a reconcile.
 */
public final class KubeEventRecorder implements EventRecorder {

  /** The {@code source.component} of every Event, as upstream's controller manager names it. */
  public static final String COMPONENT = "tidb-controller-manager";

  private static final Logger LOG = LoggerFactory.getLogger(KubeEventRecorder.class);
  private static final int MAX_MESSAGE = 1024;

  private final KubernetesClient client;
  private final String reportingInstance;
  private final Clock clock;
  private final ReconcileMetrics metrics;
  private final AtomicLong sequence = new AtomicLong();

  public KubeEventRecorder(
      KubernetesClient client, String reportingInstance, Clock clock, ReconcileMetrics metrics) {
    this.client = client;
    this.reportingInstance = reportingInstance;
    this.clock = clock;
    this.metrics = metrics;
  }


  @Override
  public void record(HasMetadata about, EventType type, String reason, String message) {
    Instant now = clock.instant().truncatedTo(ChronoUnit.SECONDS);
    String ts = DateTimeFormatter.ISO_INSTANT.format(now);
    String name =
        about.getMetadata().getName()
            + "."
            + Long.toHexString(clock.instant().toEpochMilli() * 1000 + sequence.incrementAndGet() % 1000);
    var event =
        new EventBuilder()
            .withNewMetadata()
            .withName(name)
            .withNamespace(about.getMetadata().getNamespace())
            .endMetadata()
            .withInvolvedObject(
                new ObjectReferenceBuilder()
                    .withApiVersion(about.getApiVersion())
                    .withKind(about.getKind())
                    .withName(about.getMetadata().getName())
                    .withNamespace(about.getMetadata().getNamespace())
                    .withUid(about.getMetadata().getUid())
                    .withResourceVersion(about.getMetadata().getResourceVersion())
                    .build())
            .withType(type.value())
            .withReason(reason)
            .withMessage(truncate(message))
            .withNewSource()
            .withComponent(COMPONENT)
            .endSource()
            .withReportingComponent(COMPONENT)
            .withReportingInstance(reportingInstance)
            .withFirstTimestamp(ts)
            .withLastTimestamp(ts)
            .withCount(1)
            .build();
    metrics.event(about.getKind(), type.value(), reason);
    try {
      client.v1().events().inNamespace(about.getMetadata().getNamespace()).resource(event).create();
      LOG.info(
          "event type={} reason={} namespace={} name={} message=\"{}\"",
          type.value(),
          reason,
          about.getMetadata().getNamespace(),
          about.getMetadata().getName(),
          message);
    } catch (KubernetesClientException e) {
      LOG.warn(
          "event not recorded reason={} namespace={} name={} code={} error=\"{}\"",
          reason,
          about.getMetadata().getNamespace(),
          about.getMetadata().getName(),
          e.getCode(),
          e.getMessage());
    }
  }

  private static String truncate(String message) {
    return message.length() <= MAX_MESSAGE ? message : message.substring(0, MAX_MESSAGE - 3) + "...";
  }

}
