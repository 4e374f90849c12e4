package io.tidb.operator.controller.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * The controller's small plain-HTTP server: {@code /metrics} (Prometheus text format), {@code
 * /healthz} (liveness) and {@code /readyz} (readiness). Serves on a daemon thread.
 */
public final class OperatorHttpServer implements AutoCloseable {

  private final JdkHttpServer http;

  private OperatorHttpServer(JdkHttpServer http) {
    this.http = http;
  }

  /**
   * Starts serving on {@code address} (port 0 picks a free port).
   *
   * @param live answers {@code /healthz}: 200 when true, 503 otherwise
   * @param ready answers {@code /readyz}: 200 when true, 503 otherwise
   */
  public static OperatorHttpServer start(
      InetSocketAddress address,
      PrometheusMeterRegistry registry,
      BooleanSupplier live,
      BooleanSupplier ready)
      throws IOException {
    JdkHttpServer http = JdkHttpServer.bind(address, "operator-http", 1);
    Map<String, HttpHandler> handlers = new LinkedHashMap<>();
    handlers.put(
        "/metrics",
        ex -> respond(ex, 200, "text/plain; version=0.0.4; charset=utf-8", registry.scrape()));
    handlers.put("/healthz", ex -> probe(ex, live));
    handlers.put("/readyz", ex -> probe(ex, ready));
    http.start(handlers);
    return new OperatorHttpServer(http);
  }

  public int port() {
    return http.port();
  }

  @Override
  public void close() {
    http.close();
  }

  private static void probe(HttpExchange ex, BooleanSupplier check) throws IOException {
    boolean ok;
    try {
      ok = check.getAsBoolean();
    } catch (RuntimeException e) {
      ok = false;
    }
    respond(ex, ok ? 200 : 503, "text/plain; charset=utf-8", ok ? "ok\n" : "not ok\n");
  }

  private static void respond(HttpExchange ex, int code, String contentType, String body)
      throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().set("Content-Type", contentType);
    if ("HEAD".equals(ex.getRequestMethod())) {
      ex.sendResponseHeaders(code, -1);
      ex.close();
      return;
    }
    ex.sendResponseHeaders(code, bytes.length);
    try (OutputStream out = ex.getResponseBody()) {
      out.write(bytes);
    }
  }
}
