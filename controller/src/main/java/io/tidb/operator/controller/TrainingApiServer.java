package io.tidb.operator.controller;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * A stand-in Kubernetes API server for {@code train-class-data}: HTTPS on 127.0.0.1 with a
 * certificate of a throwaway CA and a bearer token, answering as {@link TrainingApiAnswers}
 * decides. Open watches are held (one thread each) until {@link #close()}.
 */
final class TrainingApiServer implements AutoCloseable {

  static final String TOKEN = "class-data-training";

  private static final String PASSWORD = "class-data-training";

  private final HttpsServer server;
  private final ExecutorService threads;
  private final Path certificate;
  private final CountDownLatch closing = new CountDownLatch(1);
  private final CountDownLatch statusWritten = new CountDownLatch(1);
  private final AtomicInteger writes = new AtomicInteger();

  private TrainingApiServer(HttpsServer server, ExecutorService threads, Path certificate) {
    this.server = server;
    this.threads = threads;
    this.certificate = certificate;
  }

  /**
   * Serves {@code answers} on a free port of 127.0.0.1, with a certificate signed by a throwaway
   * CA, both made in {@code dir} by the JDK's {@code keytool}. As in a cluster, the client checks a
   * chain up to the CA it trusts; and the making runs in other processes, so it stays out of the
   * archive, which a controller in its pod never needs.
   */
  static TrainingApiServer start(TrainingApiAnswers answers, Path dir) throws Exception {
    String caStore = dir.resolve("ca.p12").toString();
    String store = dir.resolve("serving.p12").toString();
    String request = dir.resolve("serving.csr").toString();
    String signed = dir.resolve("serving.crt").toString();
    Path certificate = dir.resolve("ca.crt");
    keytool("-genkeypair", "-alias", "ca", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=training-ca",
        "-ext", "bc:c", "-validity", "1", "-keystore", caStore, "-storetype", "PKCS12", "-storepass", PASSWORD);
    keytool("-exportcert", "-rfc", "-alias", "ca", "-keystore", caStore, "-storepass", PASSWORD,
        "-file", certificate.toString());
    keytool("-genkeypair", "-alias", "serving", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=kubernetes",
        "-validity", "1", "-keystore", store, "-storetype", "PKCS12", "-storepass", PASSWORD);
    keytool("-certreq", "-alias", "serving", "-keystore", store, "-storepass", PASSWORD, "-file", request);
    keytool("-gencert", "-rfc", "-alias", "ca", "-keystore", caStore, "-storepass", PASSWORD, "-infile", request,
        "-outfile", signed, "-validity", "1", "-ext", "san=ip:127.0.0.1,dns:kubernetes.default.svc");
    keytool("-importcert", "-noprompt", "-alias", "ca", "-keystore", store, "-storepass", PASSWORD,
        "-file", certificate.toString());
    keytool("-importcert", "-alias", "serving", "-keystore", store, "-storepass", PASSWORD, "-file", signed);
    KeyStore keyStore = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(Path.of(store))) {
      keyStore.load(in, PASSWORD.toCharArray());
    }
    KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    keys.init(keyStore, PASSWORD.toCharArray());
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
    TrainingApiServer api = new TrainingApiServer(server, threads, certificate);
    server.createContext("/", exchange -> api.handle(answers, exchange));
    server.start();
    return api;
  }

  private static void keytool(String... arguments) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
    command.addAll(List.of(arguments));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    process.getOutputStream().close(); // a question it asked would end it, not wait
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (process.waitFor() != 0) {
      throw new IOException("keytool " + arguments[0] + " failed: " + output.strip());
    }
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

  /** The port this server listens on (127.0.0.1). */
  int port() {
    return server.getAddress().getPort();
  }

  /** The PEM file of this server's certificate, the one to trust. */
  Path certificate() {
    return certificate;
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
