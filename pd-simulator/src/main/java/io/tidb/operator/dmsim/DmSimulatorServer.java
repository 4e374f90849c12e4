package io.tidb.operator.dmsim;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsExchange;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import io.tidb.operator.pdsim.TcpNoDelay;
import java.security.cert.X509Certificate;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import io.tidb.operator.pdsim.CallRecorder;
import io.tidb.operator.pdsim.ClusterKey;
import io.tidb.operator.pdsim.FaultInjector;
import io.tidb.operator.pdsim.FaultRule;
import io.tidb.operator.pdsim.RecordedCall;
import io.tidb.operator.pdsim.SimRequest;
import io.tidb.operator.pdsim.SimResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The DM master API simulator's HTTP server (test infrastructure, on 127.0.0.1). URL layout, for
 * the DMCluster {@code <ns>/<dc>}:
 *
 * <pre>
 * /clusters/&lt;ns&gt;/&lt;dc&gt;/apis/v1alpha1/...                    the dm-master Service
 * /clusters/&lt;ns&gt;/&lt;dc&gt;/masters/&lt;member&gt;/apis/v1alpha1/...  one dm-master member
 * </pre>
 *
 * Every request is recorded (component {@code dm-master}, instance the member or null), and fault
 * rules are applied first, as in the PD simulator.
 */
public final class DmSimulatorServer implements AutoCloseable {

  static {
    TcpNoDelay.forJdkHttpServers();
  }

  /** The component name in fault rules and recorded calls. */
  public static final String COMPONENT = "dm-master";

  private static final Logger LOG = LoggerFactory.getLogger(DmSimulatorServer.class);
  private static final String CLUSTERS = "/clusters/";

  private final SimulatedDmClusters clusters;
  private final FaultInjector faults = new FaultInjector();
  private final CallRecorder recorder = new CallRecorder();
  private final Map<ClusterKey, DmMasterApi> apis = new ConcurrentHashMap<>();
  private final HttpServer server;
  private final ExecutorService executor;
  private final List<X509Certificate> clientCertificates = new CopyOnWriteArrayList<>();

  private DmSimulatorServer(SimulatedDmClusters clusters, HttpServer server) {
    this.clusters = clusters;
    this.server = server;
    AtomicInteger threads = new AtomicInteger();
    this.executor = Executors.newCachedThreadPool(r -> {
      Thread thread = new Thread(r, "dm-sim-http-" + threads.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    });
    server.setExecutor(executor);
    server.createContext("/", this::exchange);
  }

  /**
   * Starts a simulator on 127.0.0.1 with a free port serving HTTPS only with {@code tls}, requiring
   * a client certificate its context trusts, as dm-master does with {@code tlsCluster}; the client
   * certificate of each request is kept ({@link #clientCertificates()}).
   */
  public static DmSimulatorServer startTls(SimulatedDmClusters clusters, SSLContext tls) throws IOException {
    HttpsServer https = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 64);
    https.setHttpsConfigurator(new HttpsConfigurator(tls) {
      @Override
      public void configure(HttpsParameters params) {
        SSLParameters ssl = tls.getDefaultSSLParameters();
        ssl.setNeedClientAuth(true);
        params.setSSLParameters(ssl);
      }
    });
    DmSimulatorServer simulator = new DmSimulatorServer(clusters, https);
    simulator.server.start();
    LOG.info("dm-simulator started address={} tls=mutual", simulator.baseUrl());
    return simulator;
  }

  /** The client certificate of every request so far, oldest first (empty without TLS). */
  public List<X509Certificate> clientCertificates() {
    return List.copyOf(clientCertificates);
  }

  /** Starts a simulator on 127.0.0.1 with a free port. */
  public static DmSimulatorServer start(SimulatedDmClusters clusters) throws IOException {
    DmSimulatorServer simulator = new DmSimulatorServer(clusters,
        HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 64));
    simulator.server.start();
    LOG.info("dm-simulator started address={}", simulator.baseUrl());
    return simulator;
  }

  public SimulatedDmClusters clusters() {
    return clusters;
  }

  public SimulatedDmCluster cluster(ClusterKey key) {
    return clusters.cluster(key);
  }

  public FaultInjector faults() {
    return faults;
  }

  public CallRecorder recorder() {
    return recorder;
  }

  /** Every call received so far, oldest first. */
  public List<RecordedCall> calls() {
    return recorder.calls();
  }

  public URI baseUrl() {
    return URI.create((server instanceof HttpsServer ? "https" : "http") + "://127.0.0.1:"
        + server.getAddress().getPort());
  }

  /** The dm-master Service URL template; {@code {namespace}} and {@code {name}} name the DMCluster. */
  public String serviceUrlTemplate() {
    return baseUrl() + "/clusters/{namespace}/{name}";
  }

  /** The per-member URL template; {@code {member}} is the dm-master pod name. */
  public String memberUrlTemplate() {
    return serviceUrlTemplate() + "/masters/{member}";
  }

  public URI serviceUrl(ClusterKey key) {
    return URI.create(baseUrl() + CLUSTERS + key.namespace() + "/" + key.name());
  }

  public URI memberUrl(ClusterKey key, String member) {
    return URI.create(serviceUrl(key) + "/masters/" + member);
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
    LOG.info("dm-simulator stopped address={}", baseUrl());
  }

  /** Where a request goes: the cluster, the member (null for the Service) and the API path. */
  record Target(ClusterKey cluster, String member, String innerPath) {}

  static Optional<Target> target(String path) {
    if (!path.startsWith(CLUSTERS)) {
      return Optional.empty();
    }
    String[] parts = path.substring(CLUSTERS.length()).split("/", 4);
    if (parts.length < 4 || parts[0].isEmpty() || parts[1].isEmpty()) {
      return Optional.empty();
    }
    ClusterKey key = new ClusterKey(parts[0], parts[1]);
    if (parts[2].equals("apis")) {
      return Optional.of(new Target(key, null, "/apis/" + parts[3]));
    }
    if (parts[2].equals("masters")) {
      int slash = parts[3].indexOf('/');
      if (slash <= 0) {
        return Optional.empty();
      }
      return Optional.of(new Target(key, parts[3].substring(0, slash), parts[3].substring(slash)));
    }
    return Optional.empty();
  }

  private void exchange(HttpExchange exchange) throws IOException {
    try (exchange) {
      Instant received = Instant.now();
      if (exchange instanceof HttpsExchange secure) {
        clientCertificates.add((X509Certificate) secure.getSSLSession().getPeerCertificates()[0]);
      }
      String method = exchange.getRequestMethod();
      String path = exchange.getRequestURI().getPath();
      String rawQuery = exchange.getRequestURI().getRawQuery();
      String body;
      try (InputStream in = exchange.getRequestBody()) {
        body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      }
      Optional<Target> target = target(path);
      SimRequest request = SimRequest.of(method,
          target.map(Target::innerPath).orElse(path) + (rawQuery == null ? "" : "?" + rawQuery), body);
      SimResponse response = target.isPresent() ? answer(target.get(), request)
          : new SimResponse(404, "text/plain; charset=utf-8", "404 page not found\n", Map.of());
      recorder.record(new RecordedCall(received, target.map(Target::cluster).orElse(null), COMPONENT,
          target.map(Target::member).orElse(null), method, request.path(), rawQuery, body,
          response.status()));
      send(exchange, response);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private SimResponse answer(Target target, SimRequest request) throws InterruptedException {
    Optional<FaultInjector.ActiveFault> fault = faults.take(target.cluster(), COMPONENT,
        target.member(), request.method(), request.path());
    if (fault.isPresent()) {
      FaultRule rule = fault.get().rule();
      if (!rule.delay().isZero()) {
        Thread.sleep(rule.delay().toMillis());
      }
      if (rule.status() != 0) {
        return new SimResponse(rule.status(), "application/json",
            "{\"error\":\"fault injected by dm-simulator rule " + fault.get().id() + "\",\"code\":14}",
            Map.of());
      }
    }
    DmMasterApi api = apis.computeIfAbsent(target.cluster(), k -> new DmMasterApi(clusters.cluster(k)));
    return api.handle(request, target.member());
  }

  private static void send(HttpExchange exchange, SimResponse response) throws IOException {
    if (response.contentType() != null) {
      exchange.getResponseHeaders().set("Content-Type", response.contentType());
    }
    byte[] bytes = response.body().getBytes(StandardCharsets.UTF_8);
    exchange.sendResponseHeaders(response.status(), bytes.length == 0 ? -1 : bytes.length);
    if (bytes.length > 0) {
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(bytes);
      }
    }
  }
}
