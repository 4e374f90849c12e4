package io.tidb.operator.controller.it;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.monitor.TidbMonitor;
import io.tidb.operator.api.validation.monitor.TidbMonitorAdmissionRules;
import io.tidb.operator.controller.config.ComponentUrls;
import io.tidb.operator.controller.config.ControllerSettings;
import io.tidb.operator.controller.monitor.TidbMonitorController;
import io.tidb.operator.controller.runtime.OperatorRuntime;
import io.tidb.operator.controller.runtime.RuntimeServices;
import io.tidb.operator.testsupport.Await;
import io.tidb.operator.testsupport.ClusterAccess;
import io.tidb.operator.testsupport.ProjectCrds;
import io.tidb.operator.testsupport.TestNamespaces;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * Two test namespaces on the local control plane and the operator running only the TidbMonitor
 * controller over both (TidbClusters there are plain objects the monitors reference).
 */
final class MonitorHarness implements AutoCloseable {

  static final Duration CONVERGE = Duration.ofSeconds(120);

  final KubernetesClient admin;
  final String ns;
  final String other;
  private final KubernetesClient client;
  private final OperatorRuntime operator;
  private final UnsettledApplies unsettled = new UnsettledApplies();

  MonitorHarness(ClusterAccess access, String prefix) {
    this(access, prefix, defaultUrls());
  }

  private static ComponentUrls defaultUrls() {
    return new ComponentUrls(ComponentUrls.DEFAULT_PD_URL_TEMPLATE,
        ComponentUrls.DEFAULT_TIDB_STATUS_URL_TEMPLATE, ComponentUrls.DEFAULT_PD_MEMBER_URL_TEMPLATE,
        Duration.ofSeconds(1));
  }

  /** As above, with the PD URLs the operator uses (a PD simulator's). */
  MonitorHarness(ClusterAccess access, String prefix, ComponentUrls urls) {
    this(access, prefix, urls, true);
  }

  /**
   * The namespaces and an operator that is not started yet: the test creates objects first and
   * then calls {@link #startOperator}.
   */
  static MonitorHarness unstarted(ClusterAccess access, String prefix) {
    return new MonitorHarness(access, prefix, defaultUrls(), false);
  }

  private MonitorHarness(ClusterAccess access, String prefix, ComponentUrls urls, boolean start) {
    admin = access.newClient();
    ProjectCrds.apply(admin);
    ns = TestNamespaces.createUnique(admin, prefix);
    other = TestNamespaces.createUnique(admin, prefix + "-other");
    client = access.newClient();
    ControllerSettings settings = new ControllerSettings(
        Set.of(ns, other), 2, Duration.ofSeconds(5), Duration.ofSeconds(1), Optional.empty(),
        new InetSocketAddress("127.0.0.1", 0),
        urls,
        "tidb-operator-java/controller:it", "monitor-it");
    SimpleMeterRegistry registry = unsettled.of(new SimpleMeterRegistry());
    RuntimeServices services = RuntimeServices.create(client, registry, "monitor-it", Clock.systemUTC());
    operator = OperatorRuntime.create(settings, client, registry,
        List.of(TidbMonitorController.create(settings, services, new TidbMonitorAdmissionRules(), client)));
    if (start) {
      operator.start();
    }
  }

  /** Starts the operator of a harness made {@link #unstarted}. */
  void startOperator() {
    operator.start();
  }

  /** A TidbCluster object (no controller runs for it). */
  TidbCluster cluster(String namespace, String name, boolean tls) {
    TidbCluster tc = ApiObjects.parse("""
        apiVersion: pingcap.com/v1alpha1
        kind: TidbCluster
        metadata: {name: %s, namespace: %s}
        spec:
          version: v8.5.7
          tlsCluster: {enabled: %s}
          pd: {baseImage: pingcap/pd, replicas: 1, requests: {storage: 1Gi}}
          tikv: {baseImage: pingcap/tikv, replicas: 1, requests: {storage: 1Gi}}
          tidb: {baseImage: pingcap/tidb, replicas: 1}
        """.formatted(name, namespace, tls), TidbCluster.class);
    return admin.resource(tc).create();
  }

  /** A monitor in {@link #ns} with the images of the upstream examples and the given spec lines. */
  TidbMonitor monitor(String name, String specLines) {
    return monitor(name, specLines, UnaryOperator.identity());
  }

  /** As above, in {@code namespace}. */
  TidbMonitor monitorIn(String namespace, String name, String specLines) {
    return admin.resource(Fixtures.monitor(namespace, name, specLines)).create();
  }

  /** As above, changed by {@code adjust} before it is created. */
  TidbMonitor monitor(String name, String specLines, UnaryOperator<TidbMonitor> adjust) {
    TidbMonitor tm = Fixtures.monitor(ns, name, specLines);
    return admin.resource(adjust.apply(tm)).create();
  }

  TidbMonitor get(String name) {
    return get(ns, name);
  }

  TidbMonitor get(String namespace, String name) {
    return admin.resources(TidbMonitor.class).inNamespace(namespace).withName(name).get();
  }

  TidbMonitor edit(String name, UnaryOperator<TidbMonitor> change) {
    for (int attempt = 1; ; attempt++) {
      try {
        return admin.resources(TidbMonitor.class).inNamespace(ns).withName(name).edit(change);
      } catch (KubernetesClientException e) {
        if (e.getCode() != 409 || attempt == 10) {
          throw e;
        }
      }
    }
  }

  TidbMonitor await(String name, String what, Predicate<TidbMonitor> done) {
    return await(ns, name, what, done);
  }

  TidbMonitor await(String namespace, String name, String what, Predicate<TidbMonitor> done) {
    return Await.until(namespace + "/" + name + ": " + what, CONVERGE, () -> get(namespace, name),
        tm -> tm != null && done.test(tm));
  }

  static Optional<Condition> condition(TidbMonitor tm, String type) {
    if (tm.getStatus() == null || tm.getStatus().getConditions() == null) {
      return Optional.empty();
    }
    return tm.getStatus().getConditions().stream().filter(c -> type.equals(c.getType())).findFirst();
  }

  static boolean is(TidbMonitor tm, String type, String status) {
    return condition(tm, type).map(c -> status.equals(c.getStatus())
        && tm.getMetadata().getGeneration().equals(c.getObservedGeneration())).orElse(false);
  }

  List<Event> events(String name) {
    return admin.v1().events().inNamespace(ns).list().getItems().stream()
        .filter(e -> name.equals(e.getInvolvedObject().getName()))
        .filter(e -> "TidbMonitor".equals(e.getInvolvedObject().getKind()))
        .toList();
  }

  @Override
  public void close() {
    operator.close();
    client.close();
    for (TidbMonitor tm : admin.resources(TidbMonitor.class).inNamespace(ns).list().getItems()) {
      admin.resource(tm).edit(m -> {
        m.getMetadata().setFinalizers(null);
        return m;
      });
    }
    admin.namespaces().withName(ns).delete();
    admin.namespaces().withName(other).delete();
    admin.rbac().clusterRoles().withLabel("app.kubernetes.io/component", "monitor")
        .withLabel("app.kubernetes.io/managed-by", "tidb-operator").list().getItems().stream()
        .filter(r -> r.getMetadata().getName().startsWith(ns + "-"))
        .forEach(r -> admin.resource(r).delete());
    admin.rbac().clusterRoleBindings().list().getItems().stream()
        .filter(r -> r.getMetadata().getName().startsWith(ns + "-"))
        .forEach(r -> admin.resource(r).delete());
    admin.close();
    unsettled.assertNone();
  }
}
