package io.tidb.operator.controller;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.tidb.operator.certs.CertificateAuthority;
import io.tidb.operator.certs.CertificateIssuer;
import io.tidb.operator.certs.KeyAlgorithm;
import io.tidb.operator.certs.KeyStores;
import io.tidb.operator.certs.Pem;
import io.tidb.operator.certs.ServingCertificate;
import io.tidb.operator.certs.ServingNames;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * A stand-in Kubernetes API server for {@code train-class-data}: HTTPS on 127.0.0.1 with a
 * throwaway certificate and bearer token, answering as {@link TrainingApiAnswers} decides. Open
 * watches are held (one thread each) until {@link #close()}.
 */
final class TrainingApiServer implements AutoCloseable {

  static final String TOKEN = "class-data-training";

  private final HttpsServer server;
  private final ExecutorService threads;
  private final CertificateAuthority ca;
  private final CountDownLatch closing = new CountDownLatch(1);
  private final CountDownLatch statusWritten = new CountDownLatch(1);
  private final AtomicInteger writes = new AtomicInteger();

  private TrainingApiServer(HttpsServer server, ExecutorService threads, CertificateAuthority ca) {
    this.server = server;
    this.threads = threads;
    this.ca = ca;
  }

  /** Serves {@code answers} on a free port of 127.0.0.1. */
  static TrainingApiServer start(TrainingApiAnswers answers) throws Exception {
    CertificateIssuer issuer = new CertificateIssuer();
    Instant now = Instant.now();
    CertificateAuthority ca =
        issuer.newAuthority("class-data-training", now, Duration.ofHours(1), KeyAlgorithm.EC_P256);
    ServingCertificate serving = issuer.issueServing(
        ca, ServingNames.forService("kubernetes", "default"), now, Duration.ofHours(1), KeyAlgorithm.EC_P256);
    char[] password = "training".toCharArray();
    KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    keys.init(KeyStores.serving(serving, password), password);
    SSLContext tls = SSLContext.getInstance("TLS");
    tls.init(keys.getKeyManagers(), null, null);
    HttpsServer server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setHttpsConfigurator(new HttpsConfigurator(tls));
    ExecutorService threads = Executors.newCachedThreadPool(r -> {
      Thread t = new Thread(r, "training-api");
      t.setDaemon(true);
      return t;
    });
    server.setExecutor(threads);
    TrainingApiServer api = new TrainingApiServer(server, threads, ca);
    server.createContext("/", exchange -> api.handle(answers, exchange));
    server.start();
    return api;
  }

  private void handle(TrainingApiAnswers answers, HttpExchange exchange) throws IOException {
    try (exchange) {
      String method = exchange.getRequestMethod();
      String path = exchange.getRequestURI().getRawPath();
      byte[] body = exchange.getRequestBody().readAllBytes();
      if (!("Bearer " + TOKEN).equals(exchange.getRequestHeaders().getFirst("Authorization"))) {
        exchange.sendResponseHeaders(401, -1);
        return;
      }
      TrainingApiAnswers.Answer answer = answers.answer(method, path, exchange.getRequestURI().getRawQuery(), body);
      exchange.getResponseHeaders().set("Content-Type", "application/json");
      if (answer.watch() && exchange.getRequestHeaders().containsKey("Upgrade")) {
        // No WebSocket here: a 200 to the upgrade makes fabric8 watch over plain HTTP instead.
        exchange.sendResponseHeaders(200, -1);
        return;
      }
      if (answer.watch()) {
        exchange.sendResponseHeaders(200, 0);
        exchange.getResponseBody().flush();
        closing.await();
        return;
      }
      if (!method.equals("GET") && answer.status() < 300) {
        writes.incrementAndGet();
        TrainingApiAnswers.Target target = TrainingApiAnswers.target(path);
        if (target.resource().equals("tidbclusters") && "status".equals(target.subresource())) {
          statusWritten.countDown();
        }
      }
      byte[] bytes = answer.body().getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(answer.status(), bytes.length == 0 ? -1 : bytes.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(bytes);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** A kubeconfig reaching this server (its CA trusted, its token). */
  String kubeconfig() {
    String ca64 = Base64.getEncoder().encodeToString(
        Pem.encodeCertificate(ca.certificate()).getBytes(StandardCharsets.US_ASCII));
    return String.join("\n",
        "apiVersion: v1",
        "kind: Config",
        "clusters:",
        "- name: training",
        "  cluster:",
        "    server: https://127.0.0.1:" + server.getAddress().getPort(),
        "    certificate-authority-data: " + ca64,
        "users:",
        "- name: training",
        "  user:",
        "    token: " + TOKEN,
        "contexts:",
        "- name: training",
        "  context:",
        "    cluster: training",
        "    user: training",
        "    namespace: " + ControllerClassDataTraining.NAMESPACE,
        "current-context: training",
        "");
  }

  /** Waits until a TidbCluster's status was written; false if {@code timeout} passed first. */
  boolean awaitStatusWrite(Duration timeout) throws InterruptedException {
    return statusWritten.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Writes answered with success so far (applies, creations, status patches). */
  int writes() {
    return writes.get();
  }

  @Override
  public void close() {
    closing.countDown();
    server.stop(0);
    threads.shutdownNow();
  }
}
