package io.tidb.operator.controller.tidbcluster.discovery;

import com.sun.net.httpserver.HttpExchange;
import io.tidb.operator.controller.http.JdkHttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The discovery HTTP API on the JDK's built-in server (port 10261 in a cluster):
 *
 * <ul>
 *   <li>{@code GET /new/<base64 advertise peer URL>} (or {@code .../pd}) → 200 with the PD start
 *       flag as plain text;
 *   <li>{@code GET /new/<base64 advertise peer address>/dm} → 200 with the dm-master start flag
 *       ({@link DmDiscoveryService}), upstream's register type {@code dm};
 *   <li>{@code GET /verify/<base64 PD URL>} → 200 with comma-separated PD endpoints;
 *   <li>{@code GET /healthz} → 200 {@code ok}.
 * </ul>
 *
 * <p>Everything after {@code /new/} or {@code /verify/} is the standard base64 text (it may itself
 * contain {@code /}); the URL-safe alphabet is accepted too. Failures answer 400 (bad request),
 * 503 (not answerable yet: the scripts retry) or 404/405, with the reason as plain text.
 */
public final class DiscoveryHttpServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(DiscoveryHttpServer.class);
  private static final String NEW = "/new/";
  private static final String VERIFY = "/verify/";
  private static final String DM = "/dm";
  private static final String PD = "/pd";

  private final JdkHttpServer http;
  private final DiscoveryService service;
  private final DmDiscoveryService dm;

  private DiscoveryHttpServer(JdkHttpServer http, DiscoveryService service, DmDiscoveryService dm) {
    this.http = http;
    this.service = service;
    this.dm = dm;
  }

  /**
   * Binds {@code address} (port 0 picks a free port) and starts serving: plain HTTP, or with
   * {@code mutualTls} HTTPS requiring a client certificate its trust manager accepts
   * ({@code spec.tlsCluster.enableDiscoveryMTLS}).
   *
   * @param dm answers {@code /new/<peer>/dm}
   */
  public static DiscoveryHttpServer start(InetSocketAddress address, DiscoveryService service,
      DmDiscoveryService dm, Optional<SSLContext> mutualTls) throws IOException {
    JdkHttpServer http = mutualTls.isPresent()
        ? JdkHttpServer.bindMutualTls(address, "discovery-https", 4, mutualTls.get())
        : JdkHttpServer.bind(address, "discovery-http", 4);
    DiscoveryHttpServer s = new DiscoveryHttpServer(http, service, dm);
    http.start(Map.of("/", s::handle));
    LOG.info("event=discovery_listening address={} mtls={}", http.address(), mutualTls.isPresent());
    return s;
  }

  /** The bound port. */
  public int port() {
    return http.port();
  }

  @Override
  public void close() {
    http.close();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String path = exchange.getRequestURI().getPath();
      if (!"GET".equals(exchange.getRequestMethod())) {
        reply(exchange, 405, "only GET is served");
        return;
      }
      try {
        if (path.startsWith(NEW) && path.endsWith(DM)) {
          reply(exchange, 200, dm.discover(decode(path.substring(NEW.length(), path.length() - DM.length()))));
        } else if (path.startsWith(NEW) && path.endsWith(PD)) {
          reply(exchange, 200, service.discover(decode(path.substring(NEW.length(), path.length() - PD.length()))));
        } else if (path.startsWith(NEW)) {
          reply(exchange, 200, service.discover(decode(path.substring(NEW.length()))));
        } else if (path.startsWith(VERIFY)) {
          reply(exchange, 200, service.verify(decode(path.substring(VERIFY.length()))));
        } else if ("/healthz".equals(path)) {
          reply(exchange, 200, "ok");
        } else {
          reply(exchange, 404, "no such path: " + path
              + "; serving /new/<base64>[/pd|/dm], /verify/<base64>, /healthz");
        }
      } catch (DiscoveryException e) {
        LOG.info("event=discovery_refused path={} status={} reason=\"{}\"", path, e.status(), e.getMessage());
        reply(exchange, e.status(), e.getMessage());
      } catch (RuntimeException e) {
        LOG.warn("event=discovery_failed path={} error=\"{}\"", path, e.toString(), e);
        reply(exchange, 500, "internal error: " + e);
      }
    }
  }

  /** Decodes standard or URL-safe base64, padding optional. */
  static String decode(String encoded) {
    String text = encoded.strip();
    try {
      boolean urlSafe = text.indexOf('-') >= 0 || text.indexOf('_') >= 0;
      byte[] bytes = (urlSafe ? Base64.getUrlDecoder() : Base64.getDecoder()).decode(text);
      return new String(bytes, StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw DiscoveryException.badRequest("\"" + text + "\" is not base64: " + e.getMessage());
    }
  }

  private static void reply(HttpExchange exchange, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
    exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }
}
