package io.tidb.operator.webhook;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.tidb.operator.certs.ServingCertificate;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The webhook's Prometheus metrics:
 *
 * <ul>
 *   <li>{@code webhook_admission_requests_seconds} (histogram, count and sum), tags {@code
 *       operation} (validate, mutate) and {@code result} (allowed, patched, denied, rejected,
 *       error, bad_request, too_large, busy);
 *   <li>{@code webhook_in_flight_bytes}: request body bytes reserved by requests not yet answered;
 *   <li>{@code webhook_busy_refusals_total}: requests answered 429 before their body was read,
 *       because the bodies in flight would pass the budget;
 *   <li>{@code webhook_certificate_not_after_seconds}: expiry of the served certificate (Unix
 *       time);
 *   <li>{@code webhook_certificate_reloads_total}: certificates swapped in without a restart;
 *   <li>JVM memory, threads, CPU and uptime.
 * </ul>
 */
public final class WebhookMetrics {

  static final String ADMISSION_TIMER = "webhook.admission.requests";
  private static final Duration[] BUCKETS = {
    Duration.ofNanos(250_000), Duration.ofNanos(500_000), Duration.ofMillis(1), Duration.ofMillis(2),
    Duration.ofMillis(5), Duration.ofMillis(10), Duration.ofMillis(25), Duration.ofMillis(50),
    Duration.ofMillis(100), Duration.ofMillis(250), Duration.ofMillis(500), Duration.ofSeconds(1),
    Duration.ofSeconds(5)
  };

  private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final AtomicLong certificateNotAfter = new AtomicLong();
  private final Counter reloads;
  private final Counter busyRefusals;
  private final Counter bodyFailures;
  private final Counter slowConnections;
  private final Map<String, Timer> timers = new ConcurrentHashMap<>();

  public WebhookMetrics() {
    Gauge.builder("webhook.certificate.not.after", certificateNotAfter, AtomicLong::get)
        .baseUnit("seconds")
        .description("Expiry of the served TLS certificate, Unix seconds")
        .register(registry);
    reloads =
        Counter.builder("webhook.certificate.reloads")
            .description("TLS certificates swapped in without a restart")
            .register(registry);
    busyRefusals =
        Counter.builder("webhook.busy.refusals")
            .description("Requests answered 429 unread: the bodies in flight would pass the budget")
            .register(registry);
    bodyFailures =
        Counter.builder("webhook.request.body.failures")
            .description("Requests answered 408: the body did not arrive (idle, too slow, past its"
                + " deadline, or the client went away)")
            .register(registry);
    slowConnections =
        Counter.builder("webhook.slow.connections.closed")
            .description("Connections closed because a TLS handshake or request head took longer than"
                + " twice the idle timeout")
            .register(registry);
  }

  /**
   * Binds the JVM's memory, thread, CPU and uptime metrics on a thread of their own, off the start
   * path: their first use sets up the JVM's management beans, a tenth of the CPU the webhook spends
   * until it is ready. {@code /metrics} lists them from a moment after the start.
   */
  public void bindJvmMetricsInBackground() {
    Thread binder = new Thread(() -> {
      new JvmMemoryMetrics().bindTo(registry);
      new JvmThreadMetrics().bindTo(registry);
      new ProcessorMetrics().bindTo(registry);
      new UptimeMetrics().bindTo(registry);
    }, "webhook-jvm-metrics");
    binder.setDaemon(true);
    binder.start();
  }

  /**
   * Exposes the request body bytes reserved by requests not yet answered. The supplier is held
   * strongly: a gauge holds its object weakly, and a method reference nothing else holds would be
   * collected (the gauge then reads NaN).
   */
  public void inFlightBytes(java.util.function.LongSupplier bytes) {
    Gauge.builder("webhook.in.flight.bytes", bytes, b -> b.getAsLong())
        .strongReference(true)
        .baseUnit("bytes")
        .description("Request body bytes reserved by requests not yet answered")
        .register(registry);
  }

  /** Exposes the connections open now; the supplier is held strongly, as above. */
  public void openConnections(java.util.function.IntSupplier open) {
    Gauge.builder("webhook.open.connections", open, o -> o.getAsInt())
        .strongReference(true)
        .description("Client connections open now (TLS and HTTP)")
        .register(registry);
  }

  /** Counts a request refused unread because the bodies in flight would pass the budget. */
  public void busyRefusal() {
    busyRefusals.increment();
  }

  /** Counts a request whose body did not arrive. */
  public void bodyFailure() {
    bodyFailures.increment();
  }

  /** Counts a connection closed because its TLS handshake or request head did not arrive in time. */
  public void slowConnectionClosed() {
    slowConnections.increment();
  }

  /** Counts one admission request and its latency. */
  public void recordAdmission(AdmissionOperation operation, String result, long nanos) {
    timers
        .computeIfAbsent(
            operation.tag() + "/" + result,
            key ->
                Timer.builder(ADMISSION_TIMER)
                    .description("AdmissionReview requests by endpoint and answer")
                    .tag("operation", operation.tag())
                    .tag("result", result)
                    .serviceLevelObjectives(BUCKETS)
                    .register(registry))
        .record(nanos, TimeUnit.NANOSECONDS);
  }

  /** Notes the certificate now served; {@code reloaded} is false for the first one. */
  public void certificateServed(ServingCertificate certificate, boolean reloaded) {
    certificateNotAfter.set(certificate.certificate().getNotAfter().toInstant().getEpochSecond());
    if (reloaded) {
      reloads.increment();
    }
  }

  /** The Prometheus text exposition. */
  public String scrape() {
    return registry.scrape();
  }

  PrometheusMeterRegistry registry() {
    return registry;
  }
}
