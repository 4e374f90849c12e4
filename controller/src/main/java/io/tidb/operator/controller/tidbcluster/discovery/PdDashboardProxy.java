package io.tidb.operator.controller.tidbcluster.discovery;

import com.sun.net.httpserver.HttpExchange;
import io.tidb.operator.controller.http.JdkHttpServer;
import io.tidb.operator.pd.ComponentHttp;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A reverse proxy from the discovery Service's {@code proxy} port (10262) to PD's TiDB Dashboard,
 * so users can reach the dashboard with {@code kubectl port-forward svc/<cluster>-discovery 10262}.
 * Only paths under {@code /dashboard} are forwarded (as upstream); anything else answers 404.
 */
public final class PdDashboardProxy implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(PdDashboardProxy.class);
  private static final String PREFIX = "/dashboard";
  /** Headers that describe one hop, or that the JDK client sets itself. */
  private static final Set<String> NOT_FORWARDED = Set.of(
      "connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "te", "trailer",
      "transfer-encoding", "upgrade", "host", "content-length", "expect");

  private final JdkHttpServer http;
  private final Supplier<HttpClient> client;
  private final URI target;

  private PdDashboardProxy(JdkHttpServer http, URI target, Supplier<HttpClient> client) {
    this.http = http;
    this.target = target;
    this.client = client;
  }

  /**
   * Starts proxying {@code address} to {@code target}, e.g. {@code http://basic-pd:2379}, in
   * plain HTTP.
   */
  public static PdDashboardProxy start(InetSocketAddress address, URI target) throws IOException {
    HttpClient plain = HttpClient.newBuilder()
        .connectTimeout(Duration.ofSeconds(5))
        .followRedirects(HttpClient.Redirect.NEVER)
        .build();
    return start(address, target, () -> plain);
  }

  /**
   * Starts proxying {@code address} to {@code target} with the client {@code client} gives at
   * each request (with cluster TLS, {@code https://basic-pd:2379} and the cluster client
   * certificate, whose rotation the supplier follows).
   */
  public static PdDashboardProxy start(
      InetSocketAddress address, URI target, Supplier<HttpClient> client) throws IOException {
    JdkHttpServer http = JdkHttpServer.bind(address, "dashboard-proxy", 4);
    PdDashboardProxy proxy = new PdDashboardProxy(http, target, client);
    http.start(Map.of("/", proxy::handle));
    LOG.info("event=proxy_listening address={} target={}", http.address(), target);
    return proxy;
  }

  /**
   * The JDK client for the settings {@code settings} gives (the same settings give the same
   * client): the proxy streams bodies of any size, which the PD clients' {@link ComponentHttp}
   * does not.
   */
  public static Supplier<HttpClient> following(Supplier<ComponentHttp> settings) {
    AtomicReference<Map.Entry<ComponentHttp, HttpClient>> last = new AtomicReference<>();
    return () -> {
      ComponentHttp now = settings.get();
      Map.Entry<ComponentHttp, HttpClient> known = last.get();
      if (known != null && known.getKey() == now) {
        return known.getValue();
      }
      HttpClient.Builder builder = HttpClient.newBuilder()
          .connectTimeout(now.connectTimeout())
          .followRedirects(HttpClient.Redirect.NEVER);
      if (now.sslContext() != null) {
        builder.sslContext(now.sslContext());
      }
      HttpClient client = builder.build();
      last.set(Map.entry(now, client));
      return client;
    };
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
      URI uri = exchange.getRequestURI();
      String path = uri.getRawPath();
      if (!(path.equals(PREFIX) || path.startsWith(PREFIX + "/"))) {
        plain(exchange, 404, "only " + PREFIX + " is proxied to PD");
        return;
      }
      String query = uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery();
      HttpRequest.Builder request = HttpRequest.newBuilder(target.resolve(path + query))
          .timeout(Duration.ofSeconds(30));
      exchange.getRequestHeaders().forEach((name, values) -> {
        if (!NOT_FORWARDED.contains(name.toLowerCase(Locale.ROOT))) {
          values.forEach(v -> request.header(name, v));
        }
      });
      byte[] body = exchange.getRequestBody().readAllBytes();
      request.method(exchange.getRequestMethod(), body.length == 0
          ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(body));
      HttpResponse<InputStream> response;
      try {
        response = client.get().send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
      } catch (IOException e) {
        LOG.info("event=proxy_upstream_failed target={} path={} error=\"{}\"", target, path, e.toString());
        plain(exchange, 502, "PD at " + target + " is not reachable: " + e.getMessage());
        return;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        plain(exchange, 503, "interrupted");
        return;
      }
      for (Map.Entry<String, List<String>> h : response.headers().map().entrySet()) {
        if (!NOT_FORWARDED.contains(h.getKey().toLowerCase(Locale.ROOT)) && !h.getKey().startsWith(":")) {
          exchange.getResponseHeaders().put(h.getKey(), h.getValue());
        }
      }
      boolean noBody = "HEAD".equals(exchange.getRequestMethod()) || response.statusCode() == 204
          || response.statusCode() == 304;
      long length = response.headers().firstValueAsLong("content-length").orElse(0);
      exchange.sendResponseHeaders(response.statusCode(), noBody ? -1 : length);
      try (InputStream in = response.body(); OutputStream out = exchange.getResponseBody()) {
        if (!noBody) {
          in.transferTo(out);
        }
      }
    }
  }

  private static void plain(HttpExchange exchange, int status, String text) throws IOException {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }
}
