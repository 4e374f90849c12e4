package io.tidb.operator.controller.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.tidb.operator.controller.runtime.ReconcileMetrics;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class OperatorHttpServerTest {

  private static HttpResponse<String> get(OperatorHttpServer server, String path) throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path)).build(),
            HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void servesMetricsAndProbes() throws Exception {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    new ReconcileMetrics(registry).reconciled("tidbcluster", "converging", "tikv");
    AtomicBoolean live = new AtomicBoolean(false);
    try (OperatorHttpServer server =
        OperatorHttpServer.start(
            new InetSocketAddress("127.0.0.1", 0), registry, live::get, () -> {
              throw new IllegalStateException("not started");
            })) {
      HttpResponse<String> metrics = get(server, "/metrics");
      assertEquals(200, metrics.statusCode());
      assertTrue(
          metrics.body().contains(
              "tidb_operator_reconciles_total{controller=\"tidbcluster\",result=\"converging\",step=\"tikv\"} 1.0"),
          metrics.body());
      assertEquals(503, get(server, "/healthz").statusCode());
      live.set(true);
      assertEquals(200, get(server, "/healthz").statusCode());
      assertEquals(503, get(server, "/readyz").statusCode(), "a failing check is not ready");
    }
  }
}
