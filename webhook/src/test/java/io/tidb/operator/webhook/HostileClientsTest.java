package io.tidb.operator.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tidb.operator.api.validation.cluster.TidbClusterAdmissionRules;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Clients that misbehave: slow or idle connections, bodies that expand when parsed, bodies with
 * trailing data. None of them may stop the webhook answering the API server.
 */
class HostileClientsTest {

  private static final int MAX_BODY = 2 << 20;
  private static RunningWebhook webhook;

  @BeforeAll
  static void start() {
    ServerLimits d = ServerLimits.defaults(MAX_BODY);
    ServerLimits limits = new ServerLimits(MAX_BODY, 8L << 20, 2, Duration.ofSeconds(2), d.maxTokens(),
        d.maxNestingDepth(), Duration.ofSeconds(3), d.minBytesPerSecond(), Duration.ofSeconds(5), d.acceptQueueSize(), d.maxConnections(), 16);
    webhook = new RunningWebhook(limits, Duration.ZERO, new TidbClusterAdmissionRules());
  }

  @AfterEach
  void everyRequestIsFinishedAndItsBytesGivenBack() throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (webhook.server.inFlightBytes() != 0 && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    assertEquals(0, webhook.server.inFlightBytes(), "request body bytes still reserved");
  }

  @AfterAll
  static void stop() {
    webhook.close();
  }

  private static HttpResponse<String> validReview() {
    return webhook.post("/validate", RunningWebhook.fixture("create-basic.json"));
  }

  /** Headers for a body of {@code length} bytes that will never fully arrive. */
  private static SSLSocket slowBody(int length) throws IOException {
    SSLSocket socket = webhook.connect();
    OutputStream out = socket.getOutputStream();
    out.write(("POST /validate HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        + "Content-Length: " + length + "\r\n\r\n{").getBytes(StandardCharsets.US_ASCII));
    out.flush();
    return socket;
  }

  /** Reads until the server closes the connection or answers; true if it did within the timeout. */
  private static boolean closedOrAnswered(SSLSocket socket, Duration within) throws IOException {
    socket.setSoTimeout((int) within.toMillis());
    try (InputStream in = socket.getInputStream()) {
      return in.read(new byte[4096]) != 0;
    } catch (SocketTimeoutException e) {
      return false;
    } catch (SocketException e) {
      return true; // reset by the server
    }
  }

  /**
   * Sends {@code bytes} one at a time, {@code every} apart, until the server answers or closes
   * the connection, or 20 s pass; how long it took, or null if it was still reading.
   */
  private static Duration trickleUntilCut(java.net.Socket socket, byte[] bytes, Duration every) throws Exception {
    OutputStream out = socket.getOutputStream();
    InputStream in = socket.getInputStream();
    long start = System.nanoTime();
    for (int i = 0; System.nanoTime() - start < Duration.ofSeconds(20).toNanos(); i++) {
      try {
        out.write(bytes[i % bytes.length]);
        out.flush();
        socket.setSoTimeout((int) every.toMillis());
        in.read(); // an answer (408) or the end of the stream
        return Duration.ofNanos(System.nanoTime() - start);
      } catch (SocketTimeoutException e) {
        continue; // not cut yet
      } catch (IOException e) {
        return Duration.ofNanos(System.nanoTime() - start); // reset by the server
      }
    }
    return null;
  }

  @Test
  void slowAndIdleConnectionsNeitherStarveReviewsNorStayOpen() throws Exception {
    List<SSLSocket> slow = new ArrayList<>();
    try {
      for (int i = 0; i < 150; i++) {
        slow.add(slowBody(20_000));
      }
      for (int i = 0; i < 150; i++) {
        slow.add(webhook.connect()); // TLS done, then nothing
      }
      // Far more connections than the server has threads, all stuck; reviews still get answers.
      for (int i = 0; i < 20; i++) {
        HttpResponse<String> response = validReview();
        assertEquals(200, response.statusCode(), response.body());
        assertTrue(response.body().contains("\"allowed\":true"), response.body());
      }
      // Each stuck connection is cut off by the idle timeout (3 s here), not kept forever.
      for (SSLSocket socket : List.of(slow.get(0), slow.get(149), slow.get(150), slow.get(299))) {
        assertTrue(closedOrAnswered(socket, Duration.ofSeconds(15)), "connection still open");
      }
    } finally {
      for (SSLSocket socket : slow) {
        socket.close();
      }
    }
    assertEquals(200, webhook.get("/healthz").statusCode());
  }

  @Test
  void aBodyThatTricklesInIsCutOffEvenIfItNeverGoesIdle() throws Exception {
    try (SSLSocket socket = slowBody(20_000)) {
      // One byte every 500 ms: never idle for 3 s, but far below the minimum data rate.
      assertNotNull(trickleUntilCut(socket, " ".getBytes(StandardCharsets.US_ASCII), Duration.ofMillis(500)),
          "a body trickling in at 2 bytes/s was still being read after 20 s");
    }
  }

  /** An AdmissionReview whose object carries {@code count} small objects in a preserved field. */
  private static byte[] expanding(int count) {
    String review = new String(RunningWebhook.fixture("create-basic.json"), StandardCharsets.UTF_8);
    StringBuilder config = new StringBuilder("{");
    for (int i = 0; i < count; i++) {
      config.append(i == 0 ? "" : ",").append("\"k").append(i).append("\":{\"a\":1}");
    }
    config.append('}');
    return review.replaceFirst("\"pd\": \\{", "\"pd\": {\"config\": " + config + ",")
        .getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void bodiesThatExpandWhenParsedAreRefusedAndTheServerStaysUp() throws Exception {
    byte[] body = expanding(100_000); // ~1.5 MB, ~400,000 JSON tokens
    assertTrue(body.length > 1_000_000 && body.length < MAX_BODY, "body is " + body.length);
    ExecutorService pool = Executors.newFixedThreadPool(12);
    try {
      List<Future<HttpResponse<String>>> answers = new ArrayList<>();
      for (int i = 0; i < 12; i++) {
        answers.add(pool.submit(() -> webhook.post("/mutate", body)));
      }
      int refusedForSize = 0;
      int busy = 0;
      for (Future<HttpResponse<String>> answer : answers) {
        HttpResponse<String> response;
        try {
          response = answer.get();
        } catch (java.util.concurrent.ExecutionException cut) {
          // An upload starved of CPU on a busy machine may fall under the minimum data rate and
          // be cut off; that is a refusal too. What matters is below: the server answers.
          continue;
        }
        if (response.statusCode() == 400) {
          assertTrue(response.body().contains("request body is refused: Token count (100001) exceeds"),
              response.body());
          refusedForSize++;
        } else {
          assertEquals(429, response.statusCode(), response.body());
          assertTrue(response.body().startsWith("webhook busy"), response.body());
          busy++;
        }
      }
      assertTrue(refusedForSize >= 1, "none refused for size; busy=" + busy);
    } finally {
      pool.shutdownNow();
    }
    assertEquals(200, validReview().statusCode());
  }

  @Test
  void aBodyThatNeverFinishesGivesItsReservationBackAtTheDeadline() throws Exception {
    try (SSLSocket socket = slowBody(1 << 20)) {
      OutputStream out = socket.getOutputStream();
      long start = System.nanoTime();
      // 8 KiB a second: above the minimum rate, never idle, but 1 MiB would take two minutes.
      while (webhook.server.inFlightBytes() == 0 && System.nanoTime() - start < Duration.ofSeconds(2).toNanos()) {
        Thread.sleep(10);
      }
      assertTrue(webhook.server.inFlightBytes() >= 1 << 20, "the body's declared length is reserved");
      boolean cut = false;
      while (!cut && System.nanoTime() - start < Duration.ofSeconds(20).toNanos()) {
        try {
          out.write(new byte[1024]);
          out.flush();
          Thread.sleep(125);
        } catch (IOException e) {
          cut = true;
        }
        cut = cut || webhook.server.inFlightBytes() == 0;
      }
      assertTrue(cut, "the slow body kept its reservation for 20 s");
      assertTrue(System.nanoTime() - start < Duration.ofSeconds(15).toNanos(), "given back after the 5 s deadline");
    }
  }

  @Test
  void trailingDataAfterTheReviewIsRefused() {
    byte[] valid = RunningWebhook.fixture("create-basic.json");
    byte[] trailing = (new String(valid, StandardCharsets.UTF_8) + " {\"kind\":\"AdmissionReview\"}")
        .getBytes(StandardCharsets.UTF_8);
    HttpResponse<String> response = webhook.post("/validate", trailing);
    assertEquals(400, response.statusCode());
    assertTrue(response.body().contains("request body is not valid JSON: Trailing token"), response.body());
  }

  @Test
  void aNumericUidIsRefused() {
    String valid = new String(RunningWebhook.fixture("create-basic.json"), StandardCharsets.UTF_8);
    String numeric = valid.replaceFirst("\"uid\": \"[^\"]+\"", "\"uid\": 12345");
    HttpResponse<String> response = webhook.post("/validate", numeric.getBytes(StandardCharsets.UTF_8));
    assertEquals(400, response.statusCode());
    assertEquals("malformed AdmissionReview: request.uid must be a string, got number\n", response.body());
  }

  /** A metric without labels as the webhook's metrics show it now. */
  private static double metric(String name) {
    return webhook.metrics.scrape().lines()
        .filter(line -> line.startsWith(name + " "))
        .mapToDouble(line -> Double.parseDouble(line.substring(line.indexOf(' ') + 1)))
        .findFirst().orElseThrow();
  }

  private static double slowConnectionsClosed() {
    return metric("webhook_slow_connections_closed_total");
  }

  @Test
  void theGaugesStillReadAfterACollection() {
    // A gauge holds what it reads weakly: a method reference held by nothing else was collected
    // and the gauge read NaN.
    System.gc();
    assertEquals(0.0, metric("webhook_in_flight_bytes"));
    assertTrue(metric("webhook_open_connections") >= 0, "webhook_open_connections is a number");
  }

  @Test
  void closedConnectionsAreForgotten() throws Exception {
    // What the deadline keeps for each connection goes with it: keyed by remote address, it once
    // outlived every connection (a closed end point no longer knows its address) and a few
    // minutes of load ran the heap out.
    assertEquals(200, validReview().statusCode());
    double before = metric("webhook_open_connections");
    for (int i = 0; i < 50; i++) {
      try (SSLSocket socket = webhook.connect()) {
        socket.getOutputStream().write("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
            .getBytes(StandardCharsets.US_ASCII));
        socket.getOutputStream().flush();
        socket.setSoTimeout(5_000);
        assertTrue(socket.getInputStream().read() >= 0, "answered");
      }
    }
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (metric("webhook_open_connections") > before && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    assertTrue(metric("webhook_open_connections") <= before,
        metric("webhook_open_connections") + " connections open, " + before + " before the 50 closed ones");
  }

  @Test
  void aRequestHeadThatTricklesInIsCutOffEvenIfItNeverGoesIdle() throws Exception {
    double closedBefore = slowConnectionsClosed();
    // One byte every 500 ms of an endless header: never idle for the 3 s idle timeout, and Jetty
    // bounds a request head's size, not the time it takes.
    try (SSLSocket socket = webhook.connect()) {
      socket.getOutputStream().write("POST /validate HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "
          .getBytes(StandardCharsets.US_ASCII));
      Duration cut = trickleUntilCut(socket, "a".getBytes(StandardCharsets.US_ASCII), Duration.ofMillis(500));
      assertNotNull(cut, "a request head trickling in at 2 bytes/s was still being read after 20 s");
      assertTrue(cut.compareTo(Duration.ofSeconds(5)) > 0 && cut.compareTo(Duration.ofSeconds(12)) < 0,
          "cut after " + cut + "; the idle timeout is 3 s, a request head may take 6 s");
    }
    assertTrue(slowConnectionsClosed() > closedBefore, "counted in the metrics");
    assertEquals(200, validReview().statusCode());
  }

  @Test
  void aTlsHandshakeThatTricklesInIsCutOff() throws Exception {
    // A real ClientHello, sent a byte every 500 ms over plain TCP: the TLS handshake never
    // completes and the connection never goes idle.
    javax.net.ssl.SSLEngine engine = javax.net.ssl.SSLContext.getDefault().createSSLEngine("127.0.0.1", webhook.port);
    engine.setUseClientMode(true);
    engine.beginHandshake();
    java.nio.ByteBuffer hello = java.nio.ByteBuffer.allocate(engine.getSession().getPacketBufferSize());
    engine.wrap(java.nio.ByteBuffer.allocate(0), hello);
    hello.flip();
    byte[] bytes = new byte[hello.remaining()];
    hello.get(bytes);
    assertTrue(bytes.length > 100 && bytes[0] == 22, "a TLS handshake record of " + bytes.length + " bytes");
    try (java.net.Socket socket = new java.net.Socket("127.0.0.1", webhook.port)) {
      Duration cut = trickleUntilCut(socket, bytes, Duration.ofMillis(500));
      assertNotNull(cut, "a TLS handshake trickling in at 2 bytes/s was still open after 20 s");
      assertTrue(cut.compareTo(Duration.ofSeconds(5)) > 0 && cut.compareTo(Duration.ofSeconds(12)) < 0,
          "cut after " + cut + "; the idle timeout is 3 s, a request head may take 6 s");
    }
    assertEquals(200, validReview().statusCode());
  }

  @Test
  void aKeptAliveConnectionAskingNowAndThenIsNotCut() throws Exception {
    try (SSLSocket socket = webhook.connect()) {
      socket.setSoTimeout(5_000);
      OutputStream out = socket.getOutputStream();
      java.io.BufferedReader in = new java.io.BufferedReader(
          new java.io.InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
      // 9 s on one connection, past the 6 s a request head may take: each answer restarts it.
      for (int i = 0; i < 10; i++) {
        out.write("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        out.flush();
        assertEquals("HTTP/1.1 200 OK", in.readLine(), "answer " + i);
        int length = -1;
        for (String line; !(line = in.readLine()).isEmpty(); ) {
          if (line.toLowerCase(java.util.Locale.ROOT).startsWith("content-length:")) {
            length = Integer.parseInt(line.substring(15).trim());
          }
        }
        assertEquals("ok", readExactly(in, length).strip(), "answer " + i);
        Thread.sleep(1_000);
      }
    }
  }

  private static String readExactly(java.io.BufferedReader in, int length) throws IOException {
    char[] chars = new char[length];
    for (int n = 0; n < length; ) {
      int r = in.read(chars, n, length - n);
      if (r < 0) {
        throw new IOException("connection closed after " + n + " of " + length + " characters");
      }
      n += r;
    }
    return new String(chars);
  }
}
