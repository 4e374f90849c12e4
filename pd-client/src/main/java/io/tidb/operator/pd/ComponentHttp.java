package io.tidb.operator.pd;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.Proxy;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import javax.net.ssl.HttpsURLConnection;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocketFactory;

/**
 * A blocking HTTP/1.1 client for the components' small JSON APIs (PD, TiDB's status port, TiCDC,
 * TiFlash, TiProxy, Pump, DM-master), over the JDK's {@link HttpURLConnection} with kept-alive
 * connections. Thread-safe; share one per TLS identity.
 *
 * <p>Why not {@code java.net.http.HttpClient}: a small GET cost the controller about three times
 * the CPU through it (its selector thread and completion stages hand every exchange between
 * threads), and a settled cluster's reconcile makes six of them (pd-client's
 * {@code HttpClientCostBenchmark}, docs/benchmarks-controller.md). Each JDK client also keeps a
 * selector thread of its own.
 *
 * <p>How it behaves, as the JDK client did for these calls:
 *
 * <ul>
 *   <li>no proxy (the JDK client used none unless told), no redirects followed;
 *   <li>TLS with the given context and the JDK's host name check of the server certificate;
 *   <li>{@code connectTimeout} to open a connection; the request timeout bounds each read of the
 *       answer (these answers are a few kilobytes, read at once);
 *   <li>idle connections are kept for {@value #KEEP_ALIVE_SECONDS} s. The JDK keeps an idle
 *       connection 5 s when the server sends no {@code Keep-Alive} header, and Go's servers (PD,
 *       TiDB) send none: every 30 s heartbeat would open new connections, with a TLS handshake
 *       each. The longer time is set through the JDK's {@code http.keepAlive.time.server}
 *       property when the process has not set it.
 * </ul>
 */
public final class ComponentHttp {

  /** How long an idle kept-alive connection is reused: longer than the controller's heartbeat. */
  static final int KEEP_ALIVE_SECONDS = 120;

  private static final String KEEP_ALIVE_PROPERTY = "http.keepAlive.time.server";

  private static final Set<String> METHODS = Set.of("GET", "POST", "PUT", "DELETE");

  static {
    if (System.getProperty(KEEP_ALIVE_PROPERTY) == null) {
      System.setProperty(KEEP_ALIVE_PROPERTY, Integer.toString(KEEP_ALIVE_SECONDS));
    }
  }

  /** An answer: its status and body text (UTF-8). */
  public record Reply(int status, String body) {}

  private final Duration connectTimeout;
  private final SSLSocketFactory tls;
  private final SSLContext sslContext;

  private ComponentHttp(Duration connectTimeout, SSLContext sslContext) {
    this.connectTimeout = Objects.requireNonNull(connectTimeout, "connectTimeout");
    this.sslContext = sslContext;
    this.tls = sslContext == null ? null : CipherSuitePreference.socketFactory(sslContext);
  }

  /** A client for {@code http://} URLs (and {@code https://} with the JDK's default trust). */
  public static ComponentHttp plain(Duration connectTimeout) {
    return new ComponentHttp(connectTimeout, null);
  }

  /** A client whose {@code https://} connections use {@code sslContext}. */
  public static ComponentHttp tls(Duration connectTimeout, SSLContext sslContext) {
    return new ComponentHttp(connectTimeout, Objects.requireNonNull(sslContext, "sslContext"));
  }

  public Duration connectTimeout() {
    return connectTimeout;
  }

  /** The TLS context of this client, or null for the JDK's default. */
  public SSLContext sslContext() {
    return sslContext;
  }

  /**
   * Sends one request and reads the whole answer, whatever its status.
   *
   * @param method GET, POST, PUT or DELETE
   * @param jsonBody the body, sent as {@code application/json}, or null for none
   * @param timeout the longest wait for any one read of the answer
   * @throws IOException when the component cannot be reached or the answer cannot be read
   */
  public Reply send(String method, URI url, String jsonBody, Duration timeout) throws IOException {
    if (!METHODS.contains(method)) {
      throw new IllegalArgumentException("method: invalid value " + method + ": must be one of "
          + "GET, POST, PUT, DELETE");
    }
    HttpURLConnection connection = (HttpURLConnection) url.toURL().openConnection(Proxy.NO_PROXY);
    if (tls != null && connection instanceof HttpsURLConnection https) {
      https.setSSLSocketFactory(tls);
    }
    connection.setInstanceFollowRedirects(false);
    connection.setUseCaches(false);
    connection.setConnectTimeout(millis(connectTimeout));
    connection.setReadTimeout(millis(timeout));
    connection.setRequestMethod(method);
    connection.setRequestProperty("Accept", "application/json");
    try {
      if (jsonBody != null) {
        byte[] bytes = jsonBody.getBytes(StandardCharsets.UTF_8);
        connection.setDoOutput(true);
        connection.setFixedLengthStreamingMode(bytes.length);
        connection.setRequestProperty("Content-Type", "application/json");
        try (OutputStream out = connection.getOutputStream()) {
          out.write(bytes);
        }
      }
      int status = connection.getResponseCode();
      // Reading the body to its end (error answers included) hands the connection back to the
      // JDK's keep-alive cache.
      InputStream in = status >= 400 ? connection.getErrorStream() : connection.getInputStream();
      if (in == null) {
        return new Reply(status, "");
      }
      try (in) {
        return new Reply(status, new String(in.readAllBytes(), StandardCharsets.UTF_8));
      }
    } catch (IOException e) {
      connection.disconnect();
      throw e;
    }
  }

  /** A positive timeout in milliseconds (HttpURLConnection reads 0 as "no timeout"). */
  private static int millis(Duration d) {
    long ms = d.toMillis();
    return (int) Math.max(1, Math.min(Integer.MAX_VALUE, ms));
  }
}
