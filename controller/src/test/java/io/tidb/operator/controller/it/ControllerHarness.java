package io.tidb.operator.controller.it;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.controller.ControllerMain;
import io.tidb.operator.controller.KubeClients;
import io.tidb.operator.controller.config.ComponentUrls;
import io.tidb.operator.controller.config.ControllerSettings;
import io.tidb.operator.controller.config.FailoverSettings;
import io.tidb.operator.controller.fixtures.TestCertificates;
import io.tidb.operator.controller.initializer.InitializerSettings;
import io.tidb.operator.controller.runtime.OperatorRuntime;
import io.tidb.operator.controller.runtime.ReconcileMetrics;
import io.tidb.operator.pdsim.ClusterKey;
import io.tidb.operator.pdsim.KubernetesPodSource;
import io.tidb.operator.pdsim.PdSimulatorServer;
import io.tidb.operator.pdsim.SimulatedClusters;
import io.tidb.operator.pdsim.SimulatedPdCluster;
import io.tidb.operator.pdsim.SimulatedTidbServers;
import io.tidb.operator.pdsim.SimulationSettings;
import io.tidb.operator.testsupport.Await;
import io.tidb.operator.testsupport.ClusterAccess;
import io.tidb.operator.testsupport.ProjectCrds;
import io.tidb.operator.testsupport.TestNamespaces;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import javax.net.ssl.SSLContext;

/**
 * One test namespace on the local control plane with a PD simulator deriving PD and TiDB from the
 * namespace's pods, and the operator (restartable) watching only that namespace, reaching the
 * simulator through its URL templates, as the local run does.
 */
final class ControllerHarness implements AutoCloseable {

  /** The proxy in front of the API server, when {@link #restartOperatorBehindProxy} made one. */
  private LoopbackTcpProxy proxy;

  static final Duration CONVERGE = Duration.ofSeconds(180);

  final KubernetesClient admin;
  final String namespace;
  private final ClusterAccess access;
  private final Duration resync;
  private final KubernetesClient simClient;
  private final KubernetesPodSource podSource;
  final PdSimulatorServer simulator;
  private RunningOperator operator;
  private final UnsettledApplies unsettled = new UnsettledApplies();
  private String tidbAddressTemplate = InitializerSettings.DEFAULT_TIDB_ADDRESS_TEMPLATE;
  private String apiServerUrl;

  /** The operator process as the test sees it: its client, metrics, recorded writes and reads. */
  record RunningOperator(
      OperatorRuntime operator,
      KubernetesClient client,
      SimpleMeterRegistry registry,
      RequestRecorder writes,
      RequestRecorder reads) {

    double reconciles() {
      return registry.find(ReconcileMetrics.RECONCILES).counters().stream()
          .mapToDouble(Counter::count)
          .sum();
    }
  }

  private final FailoverSettings failover;

  private ControllerHarness(
      ClusterAccess access,
      String prefix,
      Duration resync,
      FailoverSettings failover,
      SimulationSettings simulation,
      Function<String, SSLContext> simulatorTls)
      throws IOException {
    this.access = access;
    this.resync = resync;
    this.failover = failover;
    this.admin = access.newClient();
    ProjectCrds.apply(admin);
    this.namespace = TestNamespaces.createUnique(admin, prefix);
    this.simClient = access.newClient();
    SimulatedClusters clusters =
        new SimulatedClusters(simulation, java.time.Clock.systemUTC(), new java.util.Random());
    this.podSource = KubernetesPodSource.start(simClient, namespace, clusters);
    this.simulator = simulatorTls == null
        ? PdSimulatorServer.start(clusters)
        : PdSimulatorServer.startTls(
            clusters, new InetSocketAddress("127.0.0.1", 0), simulatorTls.apply(namespace));
    this.simulator.stepEvery(Duration.ofMillis(500));
  }

  static ControllerHarness start(ClusterAccess access, String prefix, Duration resync) {
    return start(
        access, prefix, resync, FailoverSettings.DEFAULTS, SimulationSettings.defaults());
  }

  /** As {@link #start(ClusterAccess, String, Duration)}, with failover and simulation settings. */
  static ControllerHarness start(
      ClusterAccess access,
      String prefix,
      Duration resync,
      FailoverSettings failover,
      SimulationSettings simulation) {
    try {
      ControllerHarness h =
          new ControllerHarness(access, prefix, resync, failover, simulation, null);
      h.startOperator();
      return h;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * As {@link #start(ClusterAccess, String, Duration)} with a simulator serving HTTPS only, with
   * the server context {@code tls} makes for the test namespace (it requires client
   * certificates); its URL templates are {@code https}.
   */
  static ControllerHarness startTls(
      ClusterAccess access, String prefix, Duration resync, Function<String, SSLContext> tls) {
    try {
      ControllerHarness h = new ControllerHarness(access, prefix, resync, FailoverSettings.DEFAULTS,
          SimulationSettings.defaults(), tls);
      h.startOperator();
      return h;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * As {@link #startTls(ClusterAccess, String, Duration, Function)} with a resync of 5 s and the
   * simulator's certificate issued by {@code ca}, naming the Services of each {@code
   * "<cluster>/<component>"} in {@code services} (e.g. {@code "basic-tls/pd"}).
   */
  static ControllerHarness startTls(
      ClusterAccess access, String prefix, TestCertificates ca, List<String> services) {
    return startTls(access, prefix, Duration.ofSeconds(5), namespace -> {
      List<String> names = new java.util.ArrayList<>();
      for (String service : services) {
        String[] parts = service.split("/", 2);
        names.addAll(TestCertificates.componentNames(parts[0], namespace, parts[1]));
      }
      return ca.server(ca.peer(names));
    });
  }

  /**
   * Where the operator reaches TiDB's MySQL port ({@code --tidb-address-template}) from the next
   * {@link #startOperator()} on; the default names the cluster's Service, which no test resolves.
   */
  void tidbSqlAt(String template) {
    this.tidbAddressTemplate = template;
  }

  /**
   * Where the operator reaches the API server from the next {@link #startOperator()} on (e.g. a
   * {@link LoopbackTcpProxy} in front of it); the kubeconfig's server otherwise. The test's own
   * clients and the simulator's keep the kubeconfig's.
   */
  void apiServerAt(String url) {
    this.apiServerUrl = url;
  }

  /** The API server's address in the kubeconfig. */
  InetSocketAddress apiServerAddress() {
    URI url = URI.create(Config.fromKubeconfig(access.kubeConfigYaml()).getMasterUrl());
    return new InetSocketAddress(url.getHost(), url.getPort());
  }

  RunningOperator operator() {
    return operator;
  }

  /** Starts a fresh operator (new client, metrics and write log). */
  RunningOperator startOperator() {
    SimpleMeterRegistry registry = unsettled.of(new SimpleMeterRegistry());
    RequestRecorder writes = RequestRecorder.writes();
    RequestRecorder reads = RequestRecorder.reads();
    Config config = Config.fromKubeconfig(access.kubeConfigYaml());
    if (apiServerUrl != null) {
      config.setMasterUrl(apiServerUrl);
    }
    // ControllerMain's client (its JSON mapping, HTTP watches, interceptors), and the recorders
    KubernetesClient client = KubeClients.create(config, registry, 0,
        b -> b.addOrReplaceInterceptor("it-write-recorder", writes)
            .addOrReplaceInterceptor("it-read-recorder", reads));
    // as ControllerMain does: the controllers are built once the client's connection is open
    KubeClients.awaitConnection(KubeClients.connect(client));
    ControllerSettings settings =
        new ControllerSettings(
            Set.of(namespace),
            2,
            resync,
            Duration.ofSeconds(1),
            Optional.empty(),
            new InetSocketAddress("127.0.0.1", 0),
            new ComponentUrls(
                simulator.pdUrlTemplate(),
                simulator.tidbStatusUrlTemplate(),
                simulator.pdMemberUrlTemplate(),
                simulator.ticdcUrlTemplate(),
                simulator.tiproxyUrlTemplate(),
                simulator.pumpUrlTemplate(),
                simulator.tiflashUrlTemplate(),
                Duration.ofSeconds(2)),
            "tidb-operator-java/controller:it",
            "controller-it",
            failover,
            ControllerSettings.DEFAULT_RECONCILE_SPACING);
    OperatorRuntime op =
        OperatorRuntime.create(
            settings,
            client,
            registry,
            ControllerMain.controllers(
                settings,
                new InitializerSettings(settings.discoveryImage(), tidbAddressTemplate),
                client,
                registry));
    op.start();
    operator = new RunningOperator(op, client, registry, writes, reads);
    return operator;
  }

  /**
   * Restarts the operator so that it reaches the API server through a new {@link
   * LoopbackTcpProxy}, which the test can count connections on or cut; {@link #close} closes it.
   */
  LoopbackTcpProxy restartOperatorBehindProxy() {
    stopOperator();
    proxy = LoopbackTcpProxy.start(apiServerAddress());
    apiServerAt("https://127.0.0.1:" + proxy.port());
    startOperator();
    return proxy;
  }

  void stopOperator() {
    if (operator != null) {
      operator.operator().close();
      operator.client().close();
      operator = null;
    }
  }

  TidbCluster create(TidbCluster tc) {
    tc.getMetadata().setNamespace(namespace);
    return admin.resource(tc).create();
  }

  TidbCluster get(String name) {
    return admin.resources(TidbCluster.class).inNamespace(namespace).withName(name).get();
  }

  /** Changes the spec, re-reading and retrying when the operator's status write got there first. */
  TidbCluster edit(String name, UnaryOperator<TidbCluster> change) {
    for (int attempt = 1; ; attempt++) {
      try {
        return admin.resources(TidbCluster.class).inNamespace(namespace).withName(name).edit(change);
      } catch (KubernetesClientException e) {
        if (e.getCode() != 409 || attempt == 10) {
          throw e;
        }
      }
    }
  }

  TidbCluster await(String name, String what, Predicate<TidbCluster> done) {
    return Await.until(name + ": " + what, CONVERGE, () -> get(name), tc -> tc != null && done.test(tc));
  }

  TidbCluster awaitReady(String name) {
    return await(name, "Ready=True", Fixtures::ready);
  }

  /** The simulated TiDB servers of cluster {@code name}. */
  SimulatedTidbServers tidb(String name) {
    return simulator.clusters().tidb(new ClusterKey(namespace, name));
  }

  /** The PD simulator's state of cluster {@code name}. */
  SimulatedPdCluster pd(String name) {
    return simulator.pd(new ClusterKey(namespace, name));
  }

  /**
   * The changes the operator asked PD for, oldest first, as {@code METHOD path} (e.g. {@code
   * DELETE /pd/api/v1/store/4}) with the store id of an evict-leader scheduler request appended:
   * every POST and DELETE the simulator answered for cluster {@code name}.
   */
  List<String> pdMutations(String name) {
    ClusterKey key = new ClusterKey(namespace, name);
    return simulator.recorder().calls(key).stream()
        .filter(c -> "pd".equals(c.component()))
        .filter(c -> "POST".equals(c.method()) || "DELETE".equals(c.method()))
        .map(c -> c.request() + (c.path().endsWith("/schedulers") && c.body() != null
            ? " " + c.body().replaceAll(".*\"store_id\":\\s*(\\d+).*", "store=$1")
            : "") + (c.status() >= 300 ? " -> " + c.status() : ""))
        .toList();
  }

  List<Event> events(String name) {
    return admin.v1().events().inNamespace(namespace).list().getItems().stream()
        .filter(e -> name.equals(e.getInvolvedObject().getName()))
        .filter(e -> "TidbCluster".equals(e.getInvolvedObject().getKind()))
        .toList();
  }

  @Override
  public void close() {
    stopOperator();
    if (proxy != null) {
      proxy.close();
    }
    simulator.close();
    podSource.close();
    simClient.close();
    admin.namespaces().withName(namespace).delete();
    admin.close();
    unsettled.assertNone();
  }
}
