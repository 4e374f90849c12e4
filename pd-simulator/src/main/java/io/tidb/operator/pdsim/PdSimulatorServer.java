package io.tidb.operator.pdsim;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsExchange;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The simulator's HTTP server (the JDK's {@link HttpServer}). URL layout, for the TidbCluster
 * {@code <ns>/<tc>}:
 *
 * <pre>
 * /clusters/&lt;ns&gt;/&lt;tc&gt;/pd/api/...                    the PD service (any member; leader-served routes
 *                                                   need a leader)
 * /clusters/&lt;ns&gt;/&lt;tc&gt;/v3/...                        etcd's JSON gateway on the PD service
 * /clusters/&lt;ns&gt;/&lt;tc&gt;/members/&lt;member&gt;/pd/api/...    one PD member (e.g. /pd/api/v2/ready)
 * /clusters/&lt;ns&gt;/&lt;tc&gt;/tidb/&lt;pod&gt;/status               one TiDB server's status port
 * /clusters/&lt;ns&gt;/&lt;tc&gt;/ticdc/&lt;pod&gt;/...                one TiCDC server's API ({@link SimulatedTicdcServers})
 * /clusters/&lt;ns&gt;/&lt;tc&gt;/tiflash/&lt;pod&gt;/...              one TiFlash proxy status server ({@link SimulatedTiflashServers})
 * /clusters/&lt;ns&gt;/&lt;tc&gt;/tiproxy/&lt;pod&gt;/...              one TiProxy server's API ({@link SimulatedTiproxyServers})
 * /clusters/&lt;ns&gt;/&lt;tc&gt;/pump/&lt;pod&gt;/...                 one Pump server ({@link SimulatedPumpServers})
 * /sim/...                                          the simulator's own API ({@link AdminApi})
 * </pre>
 *
 * Every request under {@code /clusters} is recorded, and fault rules are applied to it first.
 *
 * <p>Started with {@link #startTls}, it serves HTTPS only and requires a client certificate
 * issued by the CA its context trusts, as PD and TiDB do with cluster TLS; the
 * client certificate of each request is kept ({@link #clientCertificates()}).
 */
public final class PdSimulatorServer implements AutoCloseable {

  static {
    TcpNoDelay.forJdkHttpServers();
  }

  private static final Logger LOG = LoggerFactory.getLogger(PdSimulatorServer.class);
  private static final String CLUSTERS = "/clusters/";

  private final SimulatedClusters clusters;
  private final FaultInjector faults = new FaultInjector();
  private final CallRecorder recorder = new CallRecorder();
  private final AdminApi admin;
  private final Clock clock;
  private final Map<ClusterKey, PdApi> pdApis = new ConcurrentHashMap<>();
  private final HttpServer server;
  private final ExecutorService executor;
  private final ScheduledExecutorService stepper;
  private final List<X509Certificate> clientCertificates = new CopyOnWriteArrayList<>();

  private PdSimulatorServer(SimulatedClusters clusters, HttpServer server, Clock clock) {
    this.clusters = clusters;
    this.server = server;
    this.clock = clock;
    this.admin = new AdminApi(clusters, faults, recorder);
    AtomicInteger threads = new AtomicInteger();
    this.executor = Executors.newCachedThreadPool(r -> daemon(r, "pd-sim-http-" + threads.incrementAndGet()));
    this.stepper = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "pd-sim-step"));
    server.setExecutor(executor);
    server.createContext("/", this::exchange);
  }

  /** Starts a simulator on 127.0.0.1 with a free port. */
  public static PdSimulatorServer start(SimulatedClusters clusters) throws IOException {
    return start(clusters, new InetSocketAddress("127.0.0.1", 0));
  }

  public static PdSimulatorServer start(SimulatedClusters clusters, InetSocketAddress bind)
      throws IOException {
    PdSimulatorServer simulator =
        new PdSimulatorServer(clusters, HttpServer.create(bind, 64), Clock.systemUTC());
    simulator.server.start();
    LOG.info("pd-simulator started address={}", simulator.baseUrl());
    return simulator;
  }

  /**
   * Starts a simulator serving HTTPS with {@code tls} (its key manager presents the server
   * certificate; its trust manager decides which client certificates are accepted) and requiring
   * a client certificate on every connection.
   */
  public static PdSimulatorServer startTls(
      SimulatedClusters clusters, InetSocketAddress bind, SSLContext tls) throws IOException {
    HttpsServer https = HttpsServer.create(bind, 64);
    https.setHttpsConfigurator(new HttpsConfigurator(tls) {
      @Override
      public void configure(HttpsParameters params) {
        SSLParameters ssl = tls.getDefaultSSLParameters();
        ssl.setNeedClientAuth(true);
        params.setSSLParameters(ssl);
      }
    });
    PdSimulatorServer simulator = new PdSimulatorServer(clusters, https, Clock.systemUTC());
    simulator.server.start();
    LOG.info("pd-simulator started address={} tls=mutual", simulator.baseUrl());
    return simulator;
  }

  /** Whether this simulator serves HTTPS (started with {@link #startTls}). */
  public boolean tls() {
    return server instanceof HttpsServer;
  }

  /** The client certificate of every request so far, oldest first (empty without TLS). */
  public List<X509Certificate> clientCertificates() {
    return List.copyOf(clientCertificates);
  }

  private static Thread daemon(Runnable runnable, String name) {
    Thread thread = new Thread(runnable, name);
    thread.setDaemon(true);
    return thread;
  }

  /** Steps every cluster at a fixed interval, so the local run makes progress without polls. */
  public void stepEvery(Duration interval) {
    stepper.scheduleAtFixedRate(clusters::stepAll, interval.toMillis(), interval.toMillis(),
        TimeUnit.MILLISECONDS);
  }

  public SimulatedClusters clusters() {
    return clusters;
  }

  public SimulatedPdCluster pd(ClusterKey key) {
    return clusters.pd(key);
  }

  public FaultInjector faults() {
    return faults;
  }

  public CallRecorder recorder() {
    return recorder;
  }

  /** Every call received so far, oldest first. */
  public java.util.List<RecordedCall> calls() {
    return recorder.calls();
  }

  public int port() {
    return server.getAddress().getPort();
  }

  public URI baseUrl() {
    return URI.create((tls() ? "https://" : "http://") + server.getAddress().getHostString() + ":" + port());
  }

  /** The PD URL template: {@code {namespace}} and {@code {name}} name the TidbCluster. */
  public String pdUrlTemplate() {
    return baseUrl() + "/clusters/{namespace}/{name}";
  }

  /** The per-member PD URL template; {@code {member}} is the PD member (pod) name. */
  public String pdMemberUrlTemplate() {
    return pdUrlTemplate() + "/members/{member}";
  }

  /** The TiDB status URL template; the client appends {@code /status}. */
  public String tidbStatusUrlTemplate() {
    return pdUrlTemplate() + "/tidb/{pod}";
  }

  /** The TiCDC URL template; {@code {pod}} is the TiCDC pod. */
  public String ticdcUrlTemplate() {
    return pdUrlTemplate() + "/ticdc/{pod}";
  }

  /** The TiProxy URL template; {@code {pod}} is the TiProxy pod. */
  public String tiproxyUrlTemplate() {
    return pdUrlTemplate() + "/tiproxy/{pod}";
  }

  /** The TiFlash proxy status URL template; {@code {pod}} is the TiFlash pod. */
  public String tiflashUrlTemplate() {
    return pdUrlTemplate() + "/tiflash/{pod}";
  }

  /** The Pump URL template; {@code {pod}} is the Pump pod. */
  public String pumpUrlTemplate() {
    return pdUrlTemplate() + "/pump/{pod}";
  }

  public URI pdUrl(ClusterKey key) {
    return URI.create(baseUrl() + CLUSTERS + key.namespace() + "/" + key.name());
  }

  public URI pdMemberUrl(ClusterKey key, String member) {
    return URI.create(pdUrl(key) + "/members/" + member);
  }

  public URI ticdcUrl(ClusterKey key, String pod) {
    return URI.create(pdUrl(key) + "/ticdc/" + pod);
  }

  public URI tidbStatusUrl(ClusterKey key, String pod) {
    return URI.create(pdUrl(key) + "/tidb/" + pod);
  }

  @Override
  public void close() {
    stepper.shutdownNow();
    server.stop(0);
    executor.shutdownNow();
    LOG.info("pd-simulator stopped address={}", baseUrl());
  }

  // ---------------------------------------------------------------- request handling

  /** Where a request under /clusters goes. */
  record Target(ClusterKey cluster, String component, String instance, String innerPath) {}

  /** Splits {@code /clusters/<ns>/<tc>/...}; empty when the path names no known target. */
  static Optional<Target> target(String path) {
    if (!path.startsWith(CLUSTERS)) {
      return Optional.empty();
    }
    String[] parts = path.substring(CLUSTERS.length()).split("/", 4);
    if (parts.length < 4 || parts[0].isEmpty() || parts[1].isEmpty()) {
      return Optional.empty();
    }
    ClusterKey key = new ClusterKey(parts[0], parts[1]);
    String rest = parts[3];
    switch (parts[2]) {
      case "pd" -> {
        return Optional.of(new Target(key, "pd", null, "/pd/" + rest));
      }
      case "v3" -> {
        return Optional.of(new Target(key, "pd", null, "/v3/" + rest));
      }
      case "members", "tidb", "ticdc", "tiproxy", "pump", "tiflash" -> {
        int slash = rest.indexOf('/');
        if (slash <= 0) {
          return Optional.empty();
        }
        String component = parts[2].equals("members") ? "pd" : parts[2];
        return Optional.of(new Target(key, component, rest.substring(0, slash),
            rest.substring(slash)));
      }
      default -> {
        return Optional.empty();
      }
    }
  }

  private void exchange(HttpExchange exchange) throws IOException {
    try (exchange) {
      Instant received = clock.instant();
      if (exchange instanceof HttpsExchange secure) {
        clientCertificates.add(clientCertificate(secure));
      }
      String method = exchange.getRequestMethod();
      String path = exchange.getRequestURI().getPath();
      String rawQuery = exchange.getRequestURI().getRawQuery();
      String body = readBody(exchange);
      SimResponse response;
      if (path.startsWith("/sim/")) {
        response = admin.handle(new SimRequest(method, path, SimRequest.parseQuery(rawQuery), body));
      } else {
        Optional<Target> target = target(path);
        SimRequest request = new SimRequest(method,
            target.map(Target::innerPath).orElse(path), SimRequest.parseQuery(rawQuery), body);
        response = target.isPresent() ? answer(target.get(), request) : SimResponse.notFound();
        recorder.record(new RecordedCall(received,
            target.map(Target::cluster).orElse(null), target.map(Target::component).orElse(null),
            target.map(Target::instance).orElse(null), method, request.path(), rawQuery, body,
            response.status()));
      }
      send(exchange, response);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      LOG.error("pd-simulator request failed method={} path={}", exchange.getRequestMethod(),
          exchange.getRequestURI().getPath(), e);
      throw e;
    }
  }

  private SimResponse answer(Target target, SimRequest request) throws InterruptedException {
    Optional<FaultInjector.ActiveFault> fault = faults.take(target.cluster(), target.component(),
        target.instance(), request.method(), request.path());
    if (fault.isPresent()) {
      FaultRule rule = fault.get().rule();
      if (!rule.delay().isZero()) {
        Thread.sleep(rule.delay().toMillis());
      }
      if (rule.status() != 0) {
        return SimResponse.pdMessage(rule.status(),
            "[PD:simulator:ErrInjectedFault]fault injected by pd-simulator rule " + fault.get().id());
      }
    }
    if (target.component().equals("tidb")) {
      return tidbStatus(target, request);
    }
    if (target.component().equals("ticdc")) {
      return clusters.ticdc(target.cluster()).answer(target.instance(), request,
          clusters.pd(target.cluster()).settings().tidbVersion());
    }
    if (target.component().equals("tiproxy")) {
      return clusters.tiproxy(target.cluster()).answer(target.instance(), request);
    }
    if (target.component().equals("pump")) {
      return clusters.pump(target.cluster()).answer(target.instance(), request);
    }
    if (target.component().equals("tiflash")) {
      return clusters.tiflash(target.cluster()).answer(target.instance(), request);
    }
    // A cluster whose PD pods joined another's PD cluster (a heterogeneous cluster with PD
    // members of its own) is answered by that PD cluster, whichever Service or member is asked.
    PdApi api = pdApis.computeIfAbsent(
        clusters.pdOwnerOf(target.cluster()), k -> new PdApi(clusters.pd(k)));
    return api.handle(request, target.instance());
  }

  private SimResponse tidbStatus(Target target, SimRequest request) {
    if (!request.path().equals("/status")) {
      return SimResponse.notFound();
    }
    return switch (clusters.tidb(target.cluster()).status(target.instance())) {
      case HEALTHY -> new SimResponse(200, "application/json",
          GoJson.compact(PdJsonViews.tidbStatus(clusters.pd(target.cluster()).settings().tidbVersion())),
          Map.of());
      case UNHEALTHY -> SimResponse.empty(500);
      case UNREACHABLE -> SimResponse.unreachable(
          "TiDB server " + target.instance() + " of " + target.cluster());
    };
  }

  /** The verified client certificate: the server requires one, so the handshake had it. */
  private static X509Certificate clientCertificate(HttpsExchange exchange) throws IOException {
    return (X509Certificate) exchange.getSSLSession().getPeerCertificates()[0];
  }

  private static String readBody(HttpExchange exchange) throws IOException {
    try (InputStream in = exchange.getRequestBody()) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  private static void send(HttpExchange exchange, SimResponse response) throws IOException {
    if (response.contentType() != null) {
      exchange.getResponseHeaders().set("Content-Type", response.contentType());
    }
    response.headers().forEach((name, value) -> exchange.getResponseHeaders().set(name, value));
    byte[] bytes = response.body().getBytes(StandardCharsets.UTF_8);
    exchange.sendResponseHeaders(response.status(), bytes.length == 0 ? -1 : bytes.length);
    if (bytes.length > 0) {
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(bytes);
      }
    }
  }
}
