package io.tidb.operator.controller.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;
import java.util.function.BooleanSupplier;

/**
 * The controller's small plain-HTTP server: {@code /metrics} (Prometheus text format), {@code
 * /healthz} (liveness) and {@code /readyz} (readiness). Serves on a daemon thread.
 */
public final class OperatorHttpServer implements AutoCloseable {

  private final HttpServer server;

  private OperatorHttpServer(HttpServer server) {
    this.server = server;
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
    HttpServer server = HttpServer.create(address, 0);
    server.createContext(
        "/metrics",
        ex ->
            respond(
                ex, 200, "text/plain; version=0.0.4; charset=utf-8", registry.scrape()));
    server.createContext("/healthz", ex -> probe(ex, live));
    server.createContext("/readyz", ex -> probe(ex, ready));
    server.setExecutor(
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, "operator-http");
              t.setDaemon(true);
              return t;
            }));
    server.start();
    return new OperatorHttpServer(server);
  }

  public int port() {
    return server.getAddress().getPort();
  }

  @Override
  public void close() {
    server.stop(0);
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
