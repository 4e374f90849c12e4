package io.tidb.operator.webhook;

import io.tidb.operator.api.validation.AdmissionRules;
import io.tidb.operator.certs.ServingCertificate;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

/** A {@link WebhookServer} on 127.0.0.1 with a test CA, and an HTTPS client that trusts it. */
final class RunningWebhook implements AutoCloseable {

  static final int MAX_BODY = 64 * 1024;

  final TestPki pki = new TestPki();
  final ServingCertificate initial;
  final ServingTls tls;
  final WebhookMetrics metrics = new WebhookMetrics();
  final WebhookServer server;
  final HttpClient client;
  final int port;

  RunningWebhook(AdmissionRules<?>... rules) {
    this(Duration.ZERO, rules);
  }

  RunningWebhook(Duration shutdownDelay, AdmissionRules<?>... rules) {
    this(ServerLimits.defaults(MAX_BODY), shutdownDelay, rules);
  }

  RunningWebhook(ServerLimits limits, Duration shutdownDelay, AdmissionRules<?>... rules) {
    AdmissionRulesRegistry registry = new AdmissionRulesRegistry();
    for (AdmissionRules<?> r : rules) {
      registry.register(r);
    }
    AdmissionReviewCodec codec = new AdmissionReviewCodec(limits);
    initial = pki.serving();
    tls = new ServingTls(initial);
    metrics.certificateServed(initial, false);
    server = new WebhookServer(
        new WebhookServer.Settings("127.0.0.1", 0, limits, shutdownDelay, Duration.ofSeconds(10)),
        new AdmissionService(registry, codec), codec, metrics, tls).start();
    port = server.port();
    client = HttpClient.newBuilder()
        .sslContext(TestPki.trusting(List.of(pki.ca.certificate())))
        .connectTimeout(Duration.ofSeconds(5))
        .build();
  }

  /** A raw TLS connection to the server, for clients that misbehave below HTTP. */
  javax.net.ssl.SSLSocket connect() throws IOException {
    javax.net.ssl.SSLSocket socket = (javax.net.ssl.SSLSocket)
        TestPki.trusting(List.of(pki.ca.certificate())).getSocketFactory().createSocket("127.0.0.1", port);
    socket.startHandshake();
    return socket;
  }

  URI uri(String path) {
    return URI.create("https://127.0.0.1:" + port + path);
  }

  HttpResponse<String> post(String path, byte[] body) {
    return send(HttpRequest.newBuilder(uri(path))
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build());
  }

  HttpResponse<String> get(String path) {
    return send(HttpRequest.newBuilder(uri(path)).GET().build());
  }

  HttpResponse<String> send(HttpRequest request) {
    try {
      return client.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  static byte[] fixture(String name) {
    try (InputStream in = RunningWebhook.class.getResourceAsStream("/admission/" + name)) {
      if (in == null) {
        throw new IllegalArgumentException("no fixture " + name);
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    if (server.isReady()) {
      server.stop();
    }
  }
}
