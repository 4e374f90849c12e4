package io.tidb.operator.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The body reading and byte budget in front of the admission endpoints, over plain HTTP. */
class InFlightBytesHandlerTest {

  private static final int MAX_BODY = 64 * 1024;
  private static final long MIN_RATE = 4096;

  private final AtomicInteger refused = new AtomicInteger();
  private final AtomicInteger bodyFailures = new AtomicInteger();
  private InFlightBytesHandler inFlight;
  private Server server;
  private int port;

  private void start(Handler downstream) throws Exception {
    start(downstream, Duration.ofSeconds(3));
  }

  private void start(Handler downstream, Duration bodyDeadline) throws Exception {
    server = new Server();
    ServerConnector connector = new ServerConnector(server);
    connector.setHost("127.0.0.1");
    connector.setIdleTimeout(10_000);
    server.addConnector(connector);
    inFlight = new InFlightBytesHandler(
        4L * MAX_BODY, MAX_BODY, bodyDeadline, MIN_RATE, refused::incrementAndGet, bodyFailures::incrementAndGet);
    inFlight.setHandler(downstream);
    server.setHandler(inFlight);
    server.start();
    port = connector.getLocalPort();
  }

  @AfterEach
  void stop() throws Exception {
    if (server != null) {
      server.stop();
    }
  }

  /**
   * Answers 200 with the number of body bytes it read, or with "too large" and without reading a
   * body marked over the limit, as the endpoint does.
   */
  private static final class CountingHandler extends Handler.Abstract {
    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
      if (request.getAttribute(InFlightBytesHandler.TOO_LARGE_ATTRIBUTE) != null) {
        response.write(true, ByteBuffer.wrap("too large".getBytes(StandardCharsets.US_ASCII)), callback);
        return true;
      }
      long n = 0;
      try (InputStream in = Content.Source.asInputStream(request)) {
        byte[] buffer = new byte[4096];
        for (int r; (r = in.read(buffer)) != -1; ) {
          n += r;
        }
      }
      response.write(true, ByteBuffer.wrap(Long.toString(n).getBytes(StandardCharsets.US_ASCII)), callback);
      return true;
    }
  }

  private String exchange(String head, byte[] body, boolean closeOutput) throws IOException {
    try (Socket socket = new Socket("127.0.0.1", port)) {
      socket.setSoTimeout(10_000);
      OutputStream out = socket.getOutputStream();
      out.write(head.getBytes(StandardCharsets.US_ASCII));
      out.write(body);
      out.flush();
      if (closeOutput) {
        socket.shutdownOutput();
      }
      ByteArrayOutputStream answer = new ByteArrayOutputStream();
      try {
        socket.getInputStream().transferTo(answer);
      } catch (IOException reset) {
        // what came before the reset is the answer
      }
      return answer.toString(StandardCharsets.UTF_8);
    }
  }

  private static String post(int length) {
    return "POST /validate HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: " + length + "\r\n\r\n";
  }

  private void awaitNothingReserved() throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    while (inFlight.inFlight() != 0 && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertEquals(0, inFlight.inFlight(), "body bytes still reserved");
  }

  @Test
  void aWholeBodyIsHandedOnAndReadFromMemory() throws Exception {
    start(new CountingHandler());
    String answer = exchange(post(10_000), new byte[10_000], false);
    assertTrue(answer.startsWith("HTTP/1.1 200"), answer);
    assertTrue(answer.endsWith("\r\n10000"), answer);
    awaitNothingReserved();
  }

  private static byte[] chunked(int chunks, int chunkSize, boolean last) {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    for (int i = 0; i < chunks; i++) {
      body.writeBytes((Integer.toHexString(chunkSize) + "\r\n").getBytes(StandardCharsets.US_ASCII));
      body.writeBytes(new byte[chunkSize]);
      body.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
    }
    if (last) {
      body.writeBytes("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
    }
    return body.toByteArray();
  }

  private static final String CHUNKED_POST =
      "POST /validate HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n";

  /** One answer read from a kept-alive connection: its head and its Content-Length bytes of body. */
  private static String readAnswer(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    while (!head.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
      int b = in.read();
      if (b < 0) {
        return head.toString(StandardCharsets.US_ASCII) + "<closed>";
      }
      head.write(b);
    }
    String text = head.toString(StandardCharsets.US_ASCII);
    java.util.regex.Matcher length =
        java.util.regex.Pattern.compile("(?i)content-length: (\\d+)").matcher(text);
    assertTrue(length.find(), text);
    return text + new String(in.readNBytes(Integer.parseInt(length.group(1))), StandardCharsets.UTF_8);
  }

  /** The answer of {@link CountingHandler} to a request handed on as over the limit. */
  private static void assertMarkedTooLarge(String answer) {
    assertTrue(answer.startsWith("HTTP/1.1 200") && answer.endsWith("\r\ntoo large"), answer);
  }

  @Test
  void aBodyOverTheLimitIsReadToItsEndAndDroppedSoTheConnectionStaysUsable() throws Exception {
    // Answering while the client is still sending, and closing, left unread bytes that the kernel
    // answered with a reset; the client sometimes saw the reset instead of the 413.
    start(new CountingHandler());
    try (Socket socket = new Socket("127.0.0.1", port)) {
      socket.setSoTimeout(10_000);
      OutputStream out = socket.getOutputStream();
      InputStream in = socket.getInputStream();
      out.write(("POST /validate HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: " + (MAX_BODY + 1) + "\r\n\r\n")
          .getBytes(StandardCharsets.US_ASCII));
      out.write(new byte[1_000]);
      out.flush();
      // The rest comes later: a server that answered at once would find it unread and close.
      Thread.sleep(300);
      out.write(new byte[MAX_BODY + 1 - 1_000]);
      out.write(CHUNKED_POST.getBytes(StandardCharsets.US_ASCII));
      out.write(chunked(6, 16 * 1024, true)); // 96 KiB: past the limit in the fifth chunk
      out.write(post(10).getBytes(StandardCharsets.US_ASCII));
      out.write(new byte[10]);
      out.flush();

      String declared = readAnswer(in);
      String chunked = readAnswer(in);
      String after = readAnswer(in);
      assertMarkedTooLarge(declared);
      assertMarkedTooLarge(chunked);
      // The same connection went on to the next request: nothing of the refused bodies was left.
      assertTrue(after.startsWith("HTTP/1.1 200") && after.endsWith("\r\n10"), after);
    }
    assertEquals(0, bodyFailures.get());
    awaitNothingReserved();
  }

  @Test
  void aBodyPastTwiceTheLimitIsAnsweredWithoutWaitingForItsEnd() throws Exception {
    start(new CountingHandler());
    // Declared: refused from its length, nothing read.
    long start = System.nanoTime();
    String declared = exchange(post(2 * MAX_BODY + 1), new byte[0], false);
    assertMarkedTooLarge(declared);
    // Chunked, and still coming: answered once it passes twice the limit, not at the 3 s deadline.
    String chunked = exchange(CHUNKED_POST, chunked(9, 16 * 1024, false), false);
    assertMarkedTooLarge(chunked);
    long millis = (System.nanoTime() - start) / 1_000_000;
    assertTrue(millis < 2_500, "answered after " + millis + " ms");
    assertEquals(0, bodyFailures.get());
    awaitNothingReserved();
  }

  @Test
  void aResponseCallbackFailedDownstreamStillCompletesTheRequestAndGivesTheBytesBack() throws Exception {
    // What Jetty's EagerContentHandler (12.1.12) lost: its wrapper ignored a failed callback, so the
    // request never completed and its reservation was never given back.
    start(new Handler.Abstract() {
      @Override
      public boolean handle(Request request, Response response, Callback callback) {
        callback.failed(new IOException("the answer could not be written"));
        return true;
      }
    });
    String answer = exchange(post(1_000), new byte[1_000], false);
    assertTrue(answer.isEmpty() || answer.startsWith("HTTP/1.1 500"), answer);
    awaitNothingReserved();
  }

  @Test
  void aBodyCutShortIsAnswered408AndGivesItsBytesBack() throws Exception {
    start(new CountingHandler());
    String answer = exchange(post(1_000), new byte[10], true);
    assertTrue(answer.startsWith("HTTP/1.1 408"), answer);
    assertTrue(answer.contains("request body not received"), answer);
    assertEquals(1, bodyFailures.get());
    awaitNothingReserved();
  }

  @Test
  void aBodyThatStopsArrivingIsAnswered408AtItsDeadline() throws Exception {
    start(new CountingHandler());
    long start = System.nanoTime();
    String answer = exchange(post(1_000), new byte[10], false);
    long millis = (System.nanoTime() - start) / 1_000_000;
    assertTrue(answer.startsWith("HTTP/1.1 408"), answer);
    assertTrue(answer.contains("not received within 3000 ms"), answer);
    assertTrue(millis >= 2_900 && millis < 9_000, "answered after " + millis + " ms");
    awaitNothingReserved();
  }

  @Test
  void aBodyPastTheBudgetIsAnswered429WithoutHoldingItsBytes() throws Exception {
    start(new CountingHandler());
    Socket[] holders = new Socket[4];
    try {
      // Four bodies that never arrive (within this test) hold the whole budget.
      for (int i = 0; i < holders.length; i++) {
        holders[i] = new Socket("127.0.0.1", port);
        holders[i].getOutputStream().write(post(MAX_BODY).getBytes(StandardCharsets.US_ASCII));
        holders[i].getOutputStream().flush();
      }
      long deadline = System.nanoTime() + Duration.ofSeconds(2).toNanos();
      while (inFlight.inFlight() < 4L * MAX_BODY && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      assertEquals(4L * MAX_BODY, inFlight.inFlight());
      String answer = exchange(post(1_000), new byte[1_000], false);
      assertTrue(answer.startsWith("HTTP/1.1 429"), answer);
      assertTrue(answer.contains("webhook busy"), answer);
      assertEquals(1, refused.get());
    } finally {
      for (Socket holder : holders) {
        if (holder != null) {
          holder.close();
        }
      }
    }
    // The holders went away: each is answered (or its connection found gone) and gives its bytes back.
    awaitNothingReserved();
  }

  @Test
  void aBodyTricklingInIsCutAtItsOwnDataRateWhateverTheServerReadBefore() throws Exception {
    // Jetty's MinimumDataRateHandler (12.1.12) divided the bytes of every request since the server
    // started: after other bodies were read, a trickling one was never cut at its rate, only at
    // its deadline; and past 9.2 GB read in all, the sum times 1e9 overflowed and healthy bodies
    // were refused. The rate is this body's own.
    start(new CountingHandler(), Duration.ofSeconds(30));
    for (int i = 0; i < 40; i++) {
      assertTrue(exchange(post(MAX_BODY), new byte[MAX_BODY], false).startsWith("HTTP/1.1 200"));
    }
    long start = System.nanoTime();
    try (Socket socket = new Socket("127.0.0.1", port)) {
      OutputStream out = socket.getOutputStream();
      out.write(post(20_000).getBytes(StandardCharsets.US_ASCII));
      socket.setSoTimeout(100);
      ByteArrayOutputStream answer = new ByteArrayOutputStream();
      // 100 bytes every 100 ms: about 1 KB/s, under the 4 KiB/s minimum, never idle.
      while (answer.size() == 0 && System.nanoTime() - start < Duration.ofSeconds(20).toNanos()) {
        try {
          out.write(new byte[100]);
          out.flush();
        } catch (IOException closed) {
          // the server answered and closed; the answer is read below
        }
        try {
          socket.getInputStream().transferTo(answer);
        } catch (java.net.SocketTimeoutException nothingYet) {
          // keep trickling
        } catch (IOException reset) {
          break;
        }
      }
      long millis = (System.nanoTime() - start) / 1_000_000;
      String text = answer.toString(StandardCharsets.UTF_8);
      assertTrue(text.startsWith("HTTP/1.1 408"), text);
      assertTrue(text.contains("read rate is too low"), text);
      assertTrue(text.contains("under 4096 bytes/s"), text);
      assertTrue(millis >= InFlightBytesHandler.RATE_GRACE.toMillis() && millis < 10_000,
          "cut after " + millis + " ms; the deadline is 30 s");
    }
    assertEquals(1, bodyFailures.get());
    awaitNothingReserved();
  }

  @Test
  void aHealthyBodyThatPausesWithinTheGraceIsReadWhole() throws Exception {
    start(new CountingHandler(), Duration.ofSeconds(30));
    try (Socket socket = new Socket("127.0.0.1", port)) {
      socket.setSoTimeout(10_000);
      OutputStream out = socket.getOutputStream();
      out.write(post(20_000).getBytes(StandardCharsets.US_ASCII));
      out.write(new byte[1_000]);
      out.flush();
      // 1 KB in 900 ms would be too slow, but the rate is not judged within the first second.
      Thread.sleep(900);
      out.write(new byte[19_000]);
      out.flush();
      String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(answer.startsWith("HTTP/1.1 200"), answer);
      assertTrue(answer.endsWith("\r\n20000"), answer);
    }
    assertEquals(0, bodyFailures.get());
    awaitNothingReserved();
  }

  @Test
  void theRateIsJudgedOnlyAfterTheGraceAndWithoutOverflow() {
    long second = 1_000_000_000L;
    assertFalse(InFlightBytesHandler.tooSlow(0, second, MIN_RATE), "within the grace");
    assertTrue(InFlightBytesHandler.tooSlow(4_096, 3 * second / 2, MIN_RATE), "2,731 bytes/s");
    assertFalse(InFlightBytesHandler.tooSlow(8_192, 3 * second / 2, MIN_RATE), "5,461 bytes/s");
    assertFalse(InFlightBytesHandler.tooSlow(0, 60 * second, 0), "no minimum set");
    // 10 GiB times 1e9 overflows a long; the rate is still 5 GiB/s.
    assertFalse(InFlightBytesHandler.tooSlow(10L << 30, 2 * second, MIN_RATE));
  }

  /** Answers with the length of the body the handler left in the request's attribute, or "none". */
  private static final class AttributeHandler extends Handler.Abstract {
    @Override
    public boolean handle(Request request, Response response, Callback callback) {
      String answer = request.getAttribute(InFlightBytesHandler.BODY_ATTRIBUTE) instanceof byte[] body
          ? "whole " + body.length + " first " + body[0] + " last " + body[body.length - 1]
          : "none";
      response.write(true, ByteBuffer.wrap(answer.getBytes(StandardCharsets.US_ASCII)), callback);
      return true;
    }
  }

  @Test
  void aWholeBodyIsLeftInTheRequestExactlyAsLongAsItIs() throws Exception {
    start(new AttributeHandler());
    byte[] body = new byte[10_000];
    body[0] = 1;
    body[9_999] = 2;
    String answer = exchange(post(10_000), body, false);
    assertTrue(answer.endsWith("\r\nwhole 10000 first 1 last 2"), answer);

    // Chunked: the buffer grew past the body; what is left is the body alone.
    ByteArrayOutputStream chunked = new ByteArrayOutputStream();
    for (int i = 0; i < 3; i++) {
      chunked.write("1000\r\n".getBytes(StandardCharsets.US_ASCII)); // 4096 bytes
      byte[] chunk = new byte[4096];
      chunk[0] = (byte) (i + 1);
      chunk[4095] = (byte) (i + 4);
      chunked.write(chunk);
      chunked.write("\r\n".getBytes(StandardCharsets.US_ASCII));
    }
    chunked.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
    answer = exchange("POST /validate HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        + "Transfer-Encoding: chunked\r\n\r\n", chunked.toByteArray(), false);
    assertTrue(answer.endsWith("\r\nwhole 12288 first 1 last 6"), answer);

    // A body over the limit is handed on unread in part: nothing is left in the attribute.
    answer = exchange(post(MAX_BODY + 1), new byte[MAX_BODY + 1], false);
    assertTrue(answer.endsWith("\r\nnone"), answer);
    awaitNothingReserved();
  }
}
