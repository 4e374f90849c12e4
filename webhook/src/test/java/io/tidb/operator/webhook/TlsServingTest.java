package io.tidb.operator.webhook;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tidb.operator.api.validation.cluster.TidbClusterAdmissionRules;
import io.tidb.operator.certs.ServingCertificate;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.cert.Certificate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.Test;

class TlsServingTest {

  @Test
  void plaintextHttpIsNotServed() throws Exception {
    try (RunningWebhook webhook = new RunningWebhook(new TidbClusterAdmissionRules());
        Socket socket = new Socket("127.0.0.1", webhook.port)) {
      socket.setSoTimeout(10_000);
      OutputStream out = socket.getOutputStream();
      out.write("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = socket.getInputStream();
      String answer = new String(in.readNBytes(4096), StandardCharsets.ISO_8859_1);

      assertFalse(answer.startsWith("HTTP/1.1 200"), answer);
      assertFalse(answer.contains("\r\n\r\nok"), answer);
    }
  }

  @Test
  void onlyTls12AndTls13AreOffered() {
    try (RunningWebhook webhook = new RunningWebhook(new TidbClusterAdmissionRules())) {
      assertEquals(Set.of("TLSv1.2", "TLSv1.3"), Set.of(webhook.tls.factory().getSelectedProtocols()));
      for (String protocol : List.of("TLSv1.2", "TLSv1.3")) {
        HttpClient client = HttpClient.newBuilder()
            .sslContext(TestPki.trusting(List.of(webhook.pki.ca.certificate())))
            .sslParameters(params(protocol))
            .build();
        HttpResponse<String> response = send(client, webhook, "/healthz");
        assertEquals(200, response.statusCode());
        assertEquals(protocol, response.sslSession().orElseThrow().getProtocol());
      }
    }
  }

  @Test
  void aNewCertificateIsServedWithoutRestartAndWithoutFailedRequests() throws Exception {
    try (RunningWebhook webhook = new RunningWebhook(new TidbClusterAdmissionRules())) {
      TestPki next = new TestPki();
      ServingCertificate rotated = next.serving();
      SSLContext trustsBoth = TestPki.trusting(List.of(webhook.pki.ca.certificate(), next.ca.certificate()));
      byte[] review = RunningWebhook.fixture("create-basic.json");
      HttpClient keptAlive = HttpClient.newBuilder().sslContext(trustsBoth).build();
      assertEquals(200, post(keptAlive, webhook, review).statusCode());

      AtomicBoolean running = new AtomicBoolean(true);
      AtomicInteger ok = new AtomicInteger();
      ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
      ConcurrentLinkedQueue<byte[]> servedCertificates = new ConcurrentLinkedQueue<>();
      ExecutorService pool = Executors.newFixedThreadPool(4);
      List<Future<?>> loops = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        loops.add(pool.submit(() -> {
          while (running.get()) {
            // A fresh client per request: every request does a new TLS handshake.
            HttpClient fresh = HttpClient.newBuilder().sslContext(trustsBoth).build();
            try {
              HttpResponse<String> response = post(fresh, webhook, review);
              if (response.statusCode() == 200 && response.body().contains("\"allowed\":true")) {
                ok.incrementAndGet();
                Certificate[] chain = response.sslSession().orElseThrow().getPeerCertificates();
                servedCertificates.add(chain[0].getEncoded());
              } else {
                failures.add(response.statusCode() + " " + response.body());
              }
            } catch (Exception e) {
              failures.add(e.toString());
            }
          }
          return null;
        }));
      }
      Thread.sleep(1500);
      webhook.tls.use(rotated);
      int beforeSwap = ok.get();
      long deadline = System.nanoTime() + 60_000_000_000L;
      while (ok.get() < beforeSwap + 20 && System.nanoTime() < deadline) {
        Thread.sleep(100);
      }
      running.set(false);
      for (Future<?> loop : loops) {
        loop.get();
      }
      pool.shutdown();

      assertTrue(failures.isEmpty(), "failed requests: " + failures);
      byte[] last = servedCertificates.stream().reduce((a, b) -> b).orElseThrow();
      assertArrayEquals(rotated.certificate().getEncoded(), last);
      byte[] first = webhook.initial.certificate().getEncoded();
      assertTrue(servedCertificates.stream().anyMatch(c -> Arrays.equals(c, first)), "old certificate served before");
      // The connection opened before the swap still works.
      assertEquals(200, post(keptAlive, webhook, review).statusCode());
    }
  }

  private static javax.net.ssl.SSLParameters params(String protocol) {
    javax.net.ssl.SSLParameters p = new javax.net.ssl.SSLParameters();
    p.setProtocols(new String[] {protocol});
    return p;
  }

  private static HttpResponse<String> send(HttpClient client, RunningWebhook webhook, String path) {
    try {
      return client.send(HttpRequest.newBuilder(webhook.uri(path)).GET().build(),
          HttpResponse.BodyHandlers.ofString());
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static HttpResponse<String> post(HttpClient client, RunningWebhook webhook, byte[] body) throws Exception {
    return client.send(HttpRequest.newBuilder(webhook.uri("/validate"))
        .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofString());
  }
}
