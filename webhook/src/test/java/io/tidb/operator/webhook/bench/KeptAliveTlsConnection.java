package io.tidb.operator.webhook.bench;

import java.io.BufferedInputStream;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;

/**
 * One kept-alive HTTP/1.1 connection over TLS that sends one prepared request again and again,
 * for one thread: the benchmark's load generator. It blocks on the socket as a Go client's
 * connection goroutine does, with no selector thread, futures or header objects between the
 * caller and the socket; the JDK's {@code HttpClient} (one per connection, each with its own
 * selector thread) cost the generator more CPU per request than the server spent, on the same two
 * cores, so it capped the throughput the server could show.
 *
 * <p>The answer is read to its end (a {@code Content-Length} body or a chunked one) so that the
 * next request goes over the same connection; a connection the server closes, or any I/O failure,
 * is reopened by the next {@link #exchange()}.
 */
final class KeptAliveTlsConnection implements Closeable {

  private final SSLSocketFactory factory;
  private final InetSocketAddress address;
  private final int timeoutMillis;
  private final byte[] request;
  private SSLSocket socket;
  private InputStream in;
  private OutputStream out;
  /** The last answer's body; grown as needed and kept, so a steady load allocates nothing here. */
  private byte[] body = new byte[16 * 1024];
  private int bodyLength;
  private final StringBuilder line = new StringBuilder(128);

  KeptAliveTlsConnection(SSLSocketFactory factory, InetSocketAddress address, String path, byte[] json, Duration timeout) {
    this.factory = factory;
    this.address = address;
    this.timeoutMillis = (int) timeout.toMillis();
    byte[] head = ("POST " + path + " HTTP/1.1\r\nHost: " + address.getHostString() + ":" + address.getPort()
        + "\r\nContent-Type: application/json\r\nAccept: application/json\r\nContent-Length: " + json.length
        + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
    this.request = Arrays.copyOf(head, head.length + json.length);
    System.arraycopy(json, 0, request, head.length, json.length);
  }

  /**
   * Sends the request and reads the whole answer; returns its status. Opens the connection (TLS
   * handshake included) first if there is none.
   */
  int exchange() throws IOException {
    try {
      if (socket == null) {
        open();
      }
      out.write(request);
      out.flush();
      return readAnswer();
    } catch (IOException e) {
      close();
      throw e;
    }
  }

  /** The last answer's body as text (for error reports). */
  String body() {
    return new String(body, 0, bodyLength, StandardCharsets.UTF_8);
  }

  private void open() throws IOException {
    SSLSocket opened = (SSLSocket) factory.createSocket();
    try {
      opened.connect(address, timeoutMillis);
      opened.setSoTimeout(timeoutMillis);
      opened.setTcpNoDelay(true);
      opened.startHandshake();
    } catch (IOException e) {
      opened.close();
      throw e;
    }
    socket = opened;
    in = new BufferedInputStream(opened.getInputStream(), 16 * 1024);
    out = opened.getOutputStream();
  }

  private int readAnswer() throws IOException {
    String statusLine = readLine();
    if (!statusLine.startsWith("HTTP/1.1 ") || statusLine.length() < 12) {
      throw new IOException("not an HTTP/1.1 status line: " + statusLine);
    }
    int status = Integer.parseInt(statusLine.substring(9, 12));
    long contentLength = -1;
    boolean chunked = false;
    boolean closeAfter = false;
    for (String header = readLine(); !header.isEmpty(); header = readLine()) {
      int colon = header.indexOf(':');
      if (colon < 0) {
        throw new IOException("malformed header line: " + header);
      }
      String name = header.substring(0, colon).trim().toLowerCase(Locale.ROOT);
      String value = header.substring(colon + 1).trim().toLowerCase(Locale.ROOT);
      switch (name) {
        case "content-length" -> contentLength = Long.parseLong(value);
        case "transfer-encoding" -> chunked = value.contains("chunked");
        case "connection" -> closeAfter = value.contains("close");
        default -> { }
      }
    }
    bodyLength = 0;
    if (chunked) {
      for (long size = Long.parseLong(readLine().split(";", 2)[0].trim(), 16); size > 0;
          size = Long.parseLong(readLine().split(";", 2)[0].trim(), 16)) {
        readBody(size);
        readLine();
      }
      while (!readLine().isEmpty()) {
        // trailers
      }
    } else if (contentLength > 0) {
      readBody(contentLength);
    } else if (contentLength < 0) {
      throw new IOException("an answer with neither Content-Length nor chunked encoding");
    }
    if (closeAfter) {
      close();
    }
    return status;
  }

  private void readBody(long size) throws IOException {
    int needed = Math.toIntExact(bodyLength + size);
    if (needed > body.length) {
      body = Arrays.copyOf(body, Math.max(needed, body.length * 2));
    }
    int end = needed;
    while (bodyLength < end) {
      int read = in.read(body, bodyLength, end - bodyLength);
      if (read < 0) {
        throw new EOFException("connection closed inside an answer's body");
      }
      bodyLength += read;
    }
  }

  private String readLine() throws IOException {
    line.setLength(0);
    for (int c = in.read(); c != '\n'; c = in.read()) {
      if (c < 0) {
        throw new EOFException("connection closed inside an answer's head");
      }
      if (c != '\r') {
        line.append((char) c);
      }
    }
    return line.toString();
  }

  @Override
  public void close() {
    if (socket != null) {
      try {
        socket.close();
      } catch (IOException ignored) {
        // closing a connection already broken
      }
      socket = null;
    }
  }
}
