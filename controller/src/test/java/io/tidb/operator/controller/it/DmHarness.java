package io.tidb.operator.controller.it;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.v1alpha1.dm.DmCluster;
import io.tidb.operator.api.validation.dm.DmClusterAdmissionRules;
import io.tidb.operator.controller.config.ComponentUrls;
import io.tidb.operator.controller.config.ControllerSettings;
import io.tidb.operator.controller.dmcluster.DmClusterController;
import io.tidb.operator.controller.dmcluster.DmFailoverSettings;
import io.tidb.operator.controller.dmcluster.DmMasterEndpoints;
import io.tidb.operator.controller.runtime.OperatorRuntime;
import io.tidb.operator.controller.runtime.RuntimeServices;
import io.tidb.operator.dmsim.DmPodSource;
import io.tidb.operator.dmsim.DmSimulatorServer;
import io.tidb.operator.dmsim.SimulatedDmCluster;
import io.tidb.operator.dmsim.SimulatedDmClusters;
import io.tidb.operator.pdsim.ClusterKey;
import io.tidb.operator.pdsim.RecordedCall;
import io.tidb.operator.testsupport.Await;
import io.tidb.operator.testsupport.ClusterAccess;
import io.tidb.operator.testsupport.ProjectCrds;
import io.tidb.operator.testsupport.TestNamespaces;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;
import javax.net.ssl.SSLContext;
import java.util.function.UnaryOperator;

/**
 * One test namespace on the local control plane (StatefulSet controller, kwok nodes), a DM master
 * API simulator deriving the DM cluster from the namespace's pods, and the operator running only
 * the DMCluster controller, reaching the simulator through its URL templates.
 */
final class DmHarness implements AutoCloseable {

  static final Duration CONVERGE = Duration.ofSeconds(180);

  final KubernetesClient admin;
  final String namespace;
  final DmSimulatorServer simulator;
  private final KubernetesClient simClient;
  private final DmPodSource podSource;
  private final KubernetesClient client;
  private final OperatorRuntime operator;
  private final UnsettledApplies unsettled = new UnsettledApplies();

  DmHarness(ClusterAccess access, String prefix) {
    this(access, prefix, DmFailoverSettings.DEFAULTS.masterPeriod());
  }

  /** As above, failing dm-master members and dm-workers over after {@code failoverPeriod}. */
  DmHarness(ClusterAccess access, String prefix, Duration failoverPeriod) {
    this(access, prefix, failoverPeriod, null);
  }

  /**
   * As above with a simulator serving HTTPS only, with the server context {@code tls} makes for
   * the test namespace (requiring client certificates); null for plain HTTP.
   */
  DmHarness(ClusterAccess access, String prefix, Duration failoverPeriod, Function<String, SSLContext> tls) {
    admin = access.newClient();
    ProjectCrds.apply(admin);
    namespace = TestNamespaces.createUnique(admin, prefix);
    simClient = access.newClient();
    SimulatedDmClusters clusters = new SimulatedDmClusters();
    podSource = DmPodSource.start(simClient, namespace, clusters);
    try {
      simulator = tls == null ? DmSimulatorServer.start(clusters)
          : DmSimulatorServer.startTls(clusters, tls.apply(namespace));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    client = access.newClient();
    ControllerSettings settings = new ControllerSettings(
        Set.of(namespace), 2, Duration.ofSeconds(5), Duration.ofSeconds(1), Optional.empty(),
        new InetSocketAddress("127.0.0.1", 0), ComponentUrls.defaults(),
        "tidb-operator-java/controller:it", "dm-it");
    SimpleMeterRegistry registry = unsettled.of(new SimpleMeterRegistry());
    RuntimeServices services = RuntimeServices.create(client, registry, "dm-it", Clock.systemUTC());
    DmMasterEndpoints endpoints = new DmMasterEndpoints(simulator.serviceUrlTemplate(),
        simulator.memberUrlTemplate(), Duration.ofSeconds(2));
    operator = OperatorRuntime.create(settings, client, registry, List.of(DmClusterController.create(
        endpoints, new DmFailoverSettings(true, failoverPeriod, failoverPeriod), "tidb-operator-java/controller:it", services, new DmClusterAdmissionRules(),
        client, settings.convergingRequeue())));
    operator.start();
  }

  /** Creates a DMCluster {@code name} in the harness namespace with the given spec lines. */
  DmCluster create(String name, String specYaml) {
    DmCluster dc = ApiObjects.parse("""
        apiVersion: pingcap.com/v1alpha1
        kind: DMCluster
        metadata: {name: %s, namespace: %s}
        spec:
        """.formatted(name, namespace) + specYaml.indent(2), DmCluster.class);
    return admin.resource(dc).create();
  }

  DmCluster get(String name) {
    return admin.resources(DmCluster.class).inNamespace(namespace).withName(name).get();
  }

  DmCluster edit(String name, UnaryOperator<DmCluster> change) {
    for (int attempt = 1; ; attempt++) {
      try {
        return admin.resources(DmCluster.class).inNamespace(namespace).withName(name).edit(change);
      } catch (KubernetesClientException e) {
        if (e.getCode() != 409 || attempt == 10) {
          throw e;
        }
      }
    }
  }

  DmCluster await(String name, String what, Predicate<DmCluster> done) {
    return Await.until(name + ": " + what, CONVERGE, () -> get(name), dc -> dc != null && done.test(dc));
  }

  static Optional<Condition> condition(DmCluster dc, String type) {
    if (dc.getStatus() == null || dc.getStatus().getConditions() == null) {
      return Optional.empty();
    }
    return dc.getStatus().getConditions().stream().filter(c -> type.equals(c.getType())).findFirst();
  }

  static boolean ready(DmCluster dc) {
    return condition(dc, "Ready").filter(c -> "True".equals(c.getStatus())).isPresent()
        && dc.getStatus().getObservedGeneration() != null
        && dc.getStatus().getObservedGeneration().equals(dc.getMetadata().getGeneration());
  }

  DmCluster awaitReady(String name) {
    return await(name, "Ready=True", DmHarness::ready);
  }

  StatefulSet statefulSet(String name) {
    return admin.apps().statefulSets().inNamespace(namespace).withName(name).get();
  }

  SimulatedDmCluster dm(String name) {
    return simulator.cluster(new ClusterKey(namespace, name));
  }

  /**
   * The changes the operator asked dm-master for, oldest first: every PUT and DELETE, as {@code
   * METHOD path}, with {@code @member} when it was sent to one member.
   */
  List<String> dmMutations(String name) {
    ClusterKey key = new ClusterKey(namespace, name);
    return simulator.recorder().calls(key).stream()
        .filter(c -> "PUT".equals(c.method()) || "DELETE".equals(c.method()))
        .map(DmHarness::describe)
        .toList();
  }

  private static String describe(RecordedCall c) {
    return c.request() + (c.instance() == null ? "" : " @" + c.instance())
        + (c.status() >= 300 ? " -> " + c.status() : "");
  }

  List<Event> events(String name) {
    return admin.v1().events().inNamespace(namespace).list().getItems().stream()
        .filter(e -> name.equals(e.getInvolvedObject().getName()))
        .toList();
  }

  boolean hasEvent(String name, String reason) {
    return events(name).stream().anyMatch(e -> reason.equals(e.getReason()));
  }

  @Override
  public void close() {
    operator.close();
    client.close();
    simulator.close();
    podSource.close();
    simClient.close();
    admin.namespaces().withName(namespace).delete();
    admin.close();
    unsettled.assertNone();
  }
}
