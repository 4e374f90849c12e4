package io.tidb.operator.controller.it;

import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.initializer.TidbInitializer;
import io.tidb.operator.api.validation.initializer.TidbInitializerAdmissionRules;
import io.tidb.operator.controller.KubeClients;
import io.tidb.operator.controller.config.ComponentUrls;
import io.tidb.operator.controller.config.ControllerSettings;
import io.tidb.operator.controller.initializer.InitializerJob;
import io.tidb.operator.controller.initializer.InitializerSettings;
import io.tidb.operator.controller.initializer.TidbInitializerController;
import io.tidb.operator.controller.runtime.OperatorRuntime;
import io.tidb.operator.controller.runtime.ReconcileMetrics;
import io.tidb.operator.controller.runtime.RuntimeServices;
import io.tidb.operator.testsupport.Await;
import io.tidb.operator.testsupport.ClusterAccess;
import io.tidb.operator.testsupport.ProjectCrds;
import io.tidb.operator.testsupport.TestNamespaces;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * A namespace on a real kube-apiserver with the TidbInitializer controller (restartable) watching
 * it, its Jobs pointed at the loopback MariaDB ({@code --tidb-address-template}). No TidbCluster
 * controller runs: the test writes the TidbCluster's status (its TiDB members) itself.
 */
final class InitializerHarness implements AutoCloseable {

  static final Duration TIMEOUT = Duration.ofSeconds(60);

  final KubernetesClient admin;
  final String namespace;
  final LoopbackMariaDb db;
  final JobAsKubelet kubelet;
  private final ClusterAccess access;
  private OperatorRuntime operator;
  private final UnsettledApplies unsettled = new UnsettledApplies();
  private KubernetesClient operatorClient;
  RequestRecorder writes;
  private SimpleMeterRegistry metrics;

  InitializerHarness(ClusterAccess access, String prefix) {
    this(access, prefix, LoopbackMariaDb.shared());
  }

  /** With the Jobs pointed at {@code db} (e.g. a second MariaDB serving TLS). */
  InitializerHarness(ClusterAccess access, String prefix, LoopbackMariaDb db) {
    this.access = access;
    this.db = db;
    this.admin = access.newClient();
    ProjectCrds.apply(admin);
    this.namespace = TestNamespaces.createUnique(admin, prefix);
    this.kubelet = new JobAsKubelet(admin);
    startOperator();
  }

  void startOperator() {
    writes = RequestRecorder.writes();
    SimpleMeterRegistry registry = unsettled.of(new SimpleMeterRegistry());
    operatorClient = KubeClients.create(Config.fromKubeconfig(access.kubeConfigYaml()), registry, 0,
        b -> b.addOrReplaceInterceptor("it-write-recorder", writes));
    metrics = registry;
    ControllerSettings settings = new ControllerSettings(
        Set.of(namespace), 2, Duration.ofSeconds(30), Duration.ofSeconds(1), Optional.empty(),
        new InetSocketAddress("127.0.0.1", 0), ComponentUrls.defaults(),
        "tidb-operator-java/controller:it", "initializer-it");
    InitializerSettings initializer = new InitializerSettings(
        settings.discoveryImage(), LoopbackMariaDb.HOST + ":" + db.port);
    RuntimeServices services = RuntimeServices.create(operatorClient, registry, settings.identity(), Clock.systemUTC());
    operator = OperatorRuntime.create(settings, operatorClient, registry, List.of(
        TidbInitializerController.create(initializer, services, new TidbInitializerAdmissionRules(),
            operatorClient, settings.convergingRequeue())));
    operator.start();
  }

  /** Reconciles the running operator has finished since it started, whatever their outcome. */
  double reconciles() {
    return metrics.find(ReconcileMetrics.RECONCILES).counters().stream().mapToDouble(Counter::count).sum();
  }

  void stopOperator() {
    if (operator != null) {
      operator.close();
      operatorClient.close();
      operator = null;
    }
  }

  /** A TidbCluster (as the upstream example) whose status says {@code healthyTidb} TiDB members are up. */
  TidbCluster createCluster(String name, boolean tidbUp) {
    TidbCluster tc = ApiObjects.parse("""
        apiVersion: pingcap.com/v1alpha1
        kind: TidbCluster
        metadata: {name: %s}
        spec:
          version: v8.5.7
          pd: {baseImage: pingcap/pd, replicas: 1, requests: {storage: 1Gi}}
          tikv: {baseImage: pingcap/tikv, replicas: 1, requests: {storage: 1Gi}}
          tidb: {baseImage: pingcap/tidb, replicas: 1, service: {type: ClusterIP}}
        """.formatted(name), TidbCluster.class);
    tc.getMetadata().setNamespace(namespace);
    admin.resource(tc).create();
    setTidbHealth(name, tidbUp);
    return admin.resources(TidbCluster.class).inNamespace(namespace).withName(name).get();
  }

  /** Writes the TidbCluster's status as its controller would: one TiDB member, healthy or not. */
  void setTidbHealth(String name, boolean healthy) {
    TidbCluster tc = admin.resources(TidbCluster.class).inNamespace(namespace).withName(name).get();
    TidbCluster withStatus = ApiObjects.parse("""
        status:
          tidb:
            members:
              %s-tidb-0: {name: %s-tidb-0, health: %s}
        """.formatted(name, name, healthy), TidbCluster.class);
    tc.setStatus(withStatus.getStatus());
    admin.resources(TidbCluster.class).inNamespace(namespace).resource(tc).updateStatus();
  }

  void createSecret(String name, Map<String, String> data) {
    SecretBuilder b = new SecretBuilder().withNewMetadata().withName(name).withNamespace(namespace).endMetadata();
    data.forEach((k, v) -> b.addToData(k, Base64.getEncoder().encodeToString(v.getBytes(StandardCharsets.UTF_8))));
    admin.secrets().inNamespace(namespace).resource(b.build()).create();
  }

  TidbInitializer createInitializer(String yaml) {
    TidbInitializer ti = ApiObjects.parse(yaml, TidbInitializer.class);
    ti.getMetadata().setNamespace(namespace);
    return admin.resource(ti).create();
  }

  TidbInitializer initializer(String name) {
    return admin.resources(TidbInitializer.class).inNamespace(namespace).withName(name).get();
  }

  TidbInitializer awaitInitializer(String name, String what, Predicate<TidbInitializer> done) {
    return Await.until(name + ": " + what, TIMEOUT, () -> initializer(name), ti -> ti != null && ti.getStatus() != null && done.test(ti));
  }

  Job awaitJob(String cluster) {
    return Await.until("Job " + InitializerJob.name(cluster), TIMEOUT, () -> job(cluster), j -> j != null);
  }

  Job job(String cluster) {
    return admin.batch().v1().jobs().inNamespace(namespace).withName(InitializerJob.name(cluster)).get();
  }

  static Optional<io.fabric8.kubernetes.api.model.Condition> condition(TidbInitializer ti, String type) {
    return ti.getStatus().getConditions() == null ? Optional.empty()
        : ti.getStatus().getConditions().stream().filter(c -> type.equals(c.getType())).findFirst();
  }

  @Override
  public void close() {
    stopOperator();
    admin.namespaces().withName(namespace).delete();
    admin.close();
    unsettled.assertNone();
  }
}
