package io.tidb.operator.e2e;

import io.tidb.operator.testsupport.LoopbackPorts;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.tidb.operator.testsupport.Await;
import io.tidb.operator.testsupport.ClusterAccess;
import io.tidb.operator.testsupport.Kubeconfigs;
import io.tidb.operator.testsupport.ProjectCrds;
import io.tidb.operator.testsupport.ProjectDirectory;
import io.tidb.operator.testsupport.TestNamespaces;
import io.tidb.operator.testsupport.WithLocalControlPlane;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.Base64;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The whole system, as hack/local-up.sh runs it: the chart installed on the local control plane
 * with its webhook configurations pointing at a locally running webhook; the webhook and the
 * controller as local processes, each acting as the chart's ServiceAccount (so the chart's RBAC is
 * what they get); the PD API simulator in PD's place; the example cluster reaching Ready; an
 * invalid cluster refused through {@code kubectl apply}; then {@code helm upgrade} and
 * {@code helm uninstall}.
 */
@WithLocalControlPlane
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class EndToEndIT {

  static final ResourceDefinitionContext TIDB_CLUSTERS = new ResourceDefinitionContext.Builder()
      .withGroup("pingcap.com").withVersion("v1alpha1").withKind("TidbCluster").withPlural("tidbclusters")
      .withNamespaced(true).build();
  static final Duration READY_TIMEOUT = Duration.ofMinutes(5);
  /** Bound for a JVM process to start; generous, as test machines are often loaded. */
  static final Duration START_TIMEOUT = Duration.ofMinutes(3);
  static final String CLUSTER = "basic";

  final KubernetesClient client;
  final ClusterAccess access;
  final HelmCli helm = HelmCli.forProjectChart();
  final Path adminKubeconfig;
  final KubectlCli kubectl;

  String release;
  String operatorNs;
  String clusterNs;
  String webhookName;
  String controllerName;
  int webhookPort;
  OperatorProcess webhook;
  OperatorProcess pdSimulator;
  OperatorProcess controller;
  String caBundleAfterInstall;

  EndToEndIT(KubernetesClient client, ClusterAccess access) {
    this.client = client;
    this.access = access;
    this.adminKubeconfig = Kubeconfigs.write("admin-", access.kubeConfigYaml());
    this.kubectl = new KubectlCli(adminKubeconfig);
  }

  @BeforeAll
  void installChartAndStartProcesses() throws IOException {
    ProjectCrds.apply(client);
    operatorNs = TestNamespaces.createUnique(client, "e2e-operator");
    clusterNs = TestNamespaces.createUnique(client, "e2e-cluster");
    release = operatorNs;
    webhookName = release + "-tidb-operator-webhook";
    controllerName = release + "-tidb-operator-controller";
    webhookPort = LoopbackPorts.free();

    helm.install(adminKubeconfig, release, operatorNs, values(15)).requireSuccess();

    webhook = OperatorProcess.start("webhook", "io.tidb.operator.webhook.WebhookMain", List.of(
        "--port=" + webhookPort, "--bind-address=127.0.0.1", "--namespace=" + operatorNs,
        "--service=" + webhookName, "--secret=" + webhookName + "-tls",
        "--validating-webhook-configuration=" + webhookName, "--mutating-webhook-configuration=" + webhookName),
        Map.of("KUBECONFIG", Kubeconfigs.forServiceAccount(client, access.kubeConfigYaml(), operatorNs, webhookName).toString()));

    pdSimulator = OperatorProcess.start("pd-simulator", "io.tidb.operator.pdsim.PdSimulatorMain",
        List.of("--port=0", "--bind=127.0.0.1", "--namespace=" + clusterNs),
        Map.of("KUBECONFIG", adminKubeconfig.toString()));
    Map<String, String> pdTemplates = Await.until("the PD simulator to print its URL templates", START_TIMEOUT,
        () -> printedSettings(pdSimulator), s -> s.containsKey("tidb-status-url-template"));

    controller = OperatorProcess.start("controller", "io.tidb.operator.controller.ControllerMain", List.of(
        "--port=0", "--bind=127.0.0.1", "--watch-namespaces=" + clusterNs,
        "--leader-election", "--leader-election-namespace=" + operatorNs, "--leader-election-lease=" + controllerName,
        "--identity=e2e-controller",
        "--pd-url-template=" + pdTemplates.get("pd-url-template"),
        "--tidb-status-url-template=" + pdTemplates.get("tidb-status-url-template"),
        "--pd-member-url-template=" + pdTemplates.get("pd-member-url-template")),
        Map.of("KUBECONFIG", Kubeconfigs.forServiceAccount(client, access.kubeConfigYaml(), operatorNs, controllerName).toString()));
  }

  /**
   * Chart values: only the cluster's namespace is watched (namespace-scoped RBAC), the controller
   * elects a leader on a Lease, and the webhooks call the local webhook.
   */
  String values(int timeoutSeconds) {
    return """
        watchNamespaces: [%s]
        controller: {leaderElection: {enabled: true}}
        local: {webhookUrl: "https://127.0.0.1:%d"}
        webhook: {timeoutSeconds: %d}
        """.formatted(clusterNs, webhookPort, timeoutSeconds);
  }

  @AfterAll
  void stopEverything() {
    for (OperatorProcess process : new OperatorProcess[] {controller, pdSimulator, webhook}) {
      if (process != null) {
        process.close();
      }
    }
    // Never leave webhook configurations behind: they would intercept other tests' clusters.
    helm.uninstall(adminKubeconfig, release, operatorNs);
    client.admissionRegistration().v1().validatingWebhookConfigurations().withName(webhookName).delete();
    client.admissionRegistration().v1().mutatingWebhookConfigurations().withName(webhookName).delete();
    client.namespaces().withName(clusterNs).delete();
    client.namespaces().withName(operatorNs).delete();
  }

  @Test
  @Order(1)
  void chartInstallSchedulesTheControllerAndWebhookPods() {
    assertNotNull(client.apps().deployments().inNamespace(operatorNs).withName(controllerName).get());
    assertNotNull(client.apps().deployments().inNamespace(operatorNs).withName(webhookName).get());
    // kwok's fake nodes take the pods: scheduled and Running (no container actually starts).
    for (String component : List.of("controller", "webhook")) {
      int replicas = 2; // two webhook replicas; two controllers with leader election
      List<Pod> pods = Await.until(replicas + " " + component + " pod(s) Running", Duration.ofSeconds(90),
          () -> client.pods().inNamespace(operatorNs).withLabel("app.kubernetes.io/component", component).list().getItems(),
          list -> list.size() == replicas && list.stream().allMatch(p -> "Running".equals(p.getStatus().getPhase())));
      pods.forEach(p -> assertNotNull(p.getSpec().getNodeName(), p.getMetadata().getName()));
    }
  }

  @Test
  @Order(2)
  void webhookInjectsItsCaIntoTheChartsWebhookConfigurations() {
    caBundleAfterInstall = Await.until("the webhook to inject its CA", START_TIMEOUT, () -> {
      webhook.requireAlive();
      return caBundles();
    }, bundles -> bundles.size() == 1 && !bundles.contains(null)).iterator().next();
    assertNotNull(client.secrets().inNamespace(operatorNs).withName(webhookName + "-tls").get(),
        "the webhook keeps its CA and serving certificate in the Secret the chart's RBAC names");

    // What the API server does: trust only the injected CA and call https://127.0.0.1:<port>.
    HttpClient trustingTheBundle = HttpClient.newBuilder().sslContext(trusting(caBundleAfterInstall))
        .connectTimeout(Duration.ofSeconds(5)).build();
    HttpRequest readyz = HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + webhookPort + "/readyz"))
        .timeout(Duration.ofSeconds(5)).build();
    Await.until("the webhook to answer /readyz over TLS verified with the injected CA", START_TIMEOUT, () -> {
      webhook.requireAlive();
      try {
        return trustingTheBundle.send(readyz, HttpResponse.BodyHandlers.discarding()).statusCode();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }, status -> status == 200);

    // A JVM's first admission requests can be slow on a loaded machine (class loading, JIT), and the
    // API server gives up after timeoutSeconds. Warm the webhook up with server-side dry runs until
    // one is answered, so the tests below measure behaviour, not cold-start time.
    Await.until("the webhook to answer an admission request", START_TIMEOUT, () -> kubectl.run(
            "apply", "--dry-run=server", "-n", clusterNs, "-f", example("basic-tidb-cluster.yaml")),
        CommandResult::succeeded);
  }

  static String example(String file) {
    return ProjectDirectory.root().resolve("examples").resolve(file).toString();
  }

  /** An SSLContext that trusts exactly the CA certificates in a base64 PEM caBundle. */
  static SSLContext trusting(String caBundle) {
    try {
      KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
      trust.load(null, null);
      int i = 0;
      for (Certificate ca : CertificateFactory.getInstance("X.509")
          .generateCertificates(new ByteArrayInputStream(Base64.getDecoder().decode(caBundle)))) {
        trust.setCertificateEntry("ca-" + i++, ca);
      }
      TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      factory.init(trust);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, factory.getTrustManagers(), null);
      return context;
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalStateException("the caBundle is not a usable PEM CA bundle", e);
    }
  }

  @Test
  @Order(3)
  void validClusterIsStoredWithDefaultsAndReachesReady() {
    CommandResult applied = kubectl.run("apply", "-n", clusterNs, "-f",
        example("basic-tidb-cluster.yaml")).requireSuccess();
    assertTrue(applied.stdout().contains("tidbcluster.pingcap.com/basic created"), applied.describe());

    GenericKubernetesResource stored = tidbCluster();
    // Absent from the example, filled in by the mutating webhook on creation (the CRD's own
    // schema defaults cover none of these).
    assertEquals(3, ((Number) path(stored, "spec", "pd", "maxFailoverCount")).intValue());
    assertEquals(3, ((Number) path(stored, "spec", "tikv", "maxFailoverCount")).intValue());
    assertEquals(3, ((Number) path(stored, "spec", "tidb", "maxFailoverCount")).intValue());
    assertEquals(Boolean.FALSE, path(stored, "spec", "tlsCluster", "enabled"));
    assertEquals("IfNotPresent", path(stored, "spec", "imagePullPolicy"));
    assertEquals("Retain", path(stored, "spec", "pvReclaimPolicy"));
    // Present in the example: untouched.
    assertEquals(3, ((Number) path(stored, "spec", "pd", "replicas")).intValue());

    GenericKubernetesResource ready = Await.until("TidbCluster " + clusterNs + "/" + CLUSTER + " Ready", READY_TIMEOUT, () -> {
      controller.requireAlive();
      pdSimulator.requireAlive();
      return tidbCluster();
    }, tc -> "True".equals(readyCondition(tc).map(c -> c.get("status")).orElse(null)));

    Lease lease = client.leases().inNamespace(operatorNs).withName(controllerName).get();
    assertEquals("e2e-controller", lease.getSpec().getHolderIdentity(),
        "the controller leads through the Lease the chart's Role names");
    for (String component : List.of("pd", "tikv", "tidb")) {
      StatefulSet sts = client.apps().statefulSets().inNamespace(clusterNs).withName(CLUSTER + "-" + component).get();
      assertNotNull(sts, component);
      assertEquals(sts.getSpec().getReplicas(), sts.getStatus().getReadyReplicas(), component);
    }
    assertEquals(3, ((Map<?, ?>) path(ready, "status", "pd", "members")).size(), "PD members from the simulator");
    assertEquals(3, ((Map<?, ?>) path(ready, "status", "tikv", "stores")).size(), "TiKV stores from the simulator");
  }

  @Test
  @Order(4)
  void invalidClusterIsRefusedWithEveryWrongField() {
    CommandResult refused = kubectl.run("apply", "-n", clusterNs, "-f",
        example("invalid-tidb-cluster.yaml"));
    assertFalse(refused.succeeded(), refused.describe());
    String message = refused.stderr();
    // The webhook's answer carries one cause per violation, so kubectl prints them as a list.
    assertTrue(message.contains("The TidbCluster \"broken\" is invalid"), message);
    // Every problem in one answer, each with its field path.
    for (String field : List.of("spec.pd.version", "spec.tikv.version", "spec.tidb.version",
        "spec.pd.service.loadBalancerSourceRanges[0]", "spec.tikv.evictLeaderTimeout",
        "metadata.annotations[tikv.tidb.pingcap.com/delete-slots]")) {
      assertTrue(message.contains(field), field + " missing from: " + message);
    }
    assertNull(client.genericKubernetesResources(TIDB_CLUSTERS).inNamespace(clusterNs).withName("broken").get());
  }

  @Test
  @Order(5)
  void helmUpgradeKeepsTheInjectedCaBundle() {
    helm.upgrade(adminKubeconfig, release, operatorNs, values(20)).requireSuccess();
    ValidatingWebhookConfiguration validating =
        client.admissionRegistration().v1().validatingWebhookConfigurations().withName(webhookName).get();
    assertEquals(20, validating.getWebhooks().get(0).getTimeoutSeconds(), "the upgrade did change the configuration");
    assertEquals(Set.of(caBundleAfterInstall), caBundles(), "and kept the CA bundle");

    // The API server still trusts the webhook: a server-side dry run is answered, not failed with x509.
    CommandResult dryRun = kubectl.run("apply", "--dry-run=server", "-n", clusterNs, "-f",
        example("invalid-tidb-cluster.yaml"));
    assertTrue(dryRun.stderr().contains("spec.tikv.evictLeaderTimeout: Invalid value"), dryRun.describe());
  }

  @Test
  @Order(6)
  void helmUninstallLeavesTheClusterAndItsVolumes() {
    Set<String> pvcsBefore = pvcNames();
    assertFalse(pvcsBefore.isEmpty(), "the StatefulSets' volume claims exist");
    controller.close();
    webhook.close();

    helm.uninstall(adminKubeconfig, release, operatorNs).requireSuccess();

    assertNull(client.admissionRegistration().v1().validatingWebhookConfigurations().withName(webhookName).get());
    assertNull(client.admissionRegistration().v1().mutatingWebhookConfigurations().withName(webhookName).get());
    assertNull(client.apps().deployments().inNamespace(operatorNs).withName(controllerName).get());
    assertNotNull(tidbCluster(), "the TidbCluster stays");
    assertEquals(pvcsBefore, pvcNames(), "its PersistentVolumeClaims stay");
    assertTrue(client.persistentVolumeClaims().inNamespace(clusterNs).list().getItems().stream()
        .allMatch(pvc -> pvc.getMetadata().getDeletionTimestamp() == null));
  }

  // ---- helpers -------------------------------------------------------------------------------

  GenericKubernetesResource tidbCluster() {
    return client.genericKubernetesResources(TIDB_CLUSTERS).inNamespace(clusterNs).withName(CLUSTER).get();
  }

  Set<String> pvcNames() {
    return client.persistentVolumeClaims().inNamespace(clusterNs).list().getItems().stream()
        .map(PersistentVolumeClaim::getMetadata).map(m -> m.getName()).collect(Collectors.toSet());
  }

  /** The distinct caBundle values of both configurations' webhooks (null for a missing one). */
  Set<String> caBundles() {
    ValidatingWebhookConfiguration validating =
        client.admissionRegistration().v1().validatingWebhookConfigurations().withName(webhookName).get();
    MutatingWebhookConfiguration mutating =
        client.admissionRegistration().v1().mutatingWebhookConfigurations().withName(webhookName).get();
    java.util.HashSet<String> bundles = new java.util.HashSet<>();
    validating.getWebhooks().forEach(w -> bundles.add(blankToNull(w.getClientConfig().getCaBundle())));
    mutating.getWebhooks().forEach(w -> bundles.add(blankToNull(w.getClientConfig().getCaBundle())));
    return bundles;
  }

  static String blankToNull(String value) {
    return value == null || value.isBlank() ? null : value;
  }

  @SuppressWarnings("unchecked")
  static Optional<Map<String, Object>> readyCondition(GenericKubernetesResource tc) {
    Object conditions = path(tc, "status", "conditions");
    if (!(conditions instanceof List<?> list)) {
      return Optional.empty();
    }
    return list.stream().map(c -> (Map<String, Object>) c).filter(c -> "Ready".equals(c.get("type"))).findFirst();
  }

  static Object path(GenericKubernetesResource resource, String... keys) {
    Object current = resource.getAdditionalProperties();
    for (String key : keys) {
      if (!(current instanceof Map<?, ?> map)) {
        return null;
      }
      current = map.get(key);
    }
    return current;
  }

  /** {@code key=value} lines a process printed (the PD simulator prints its URL templates so). */
  static Map<String, String> printedSettings(OperatorProcess process) {
    process.requireAlive();
    return process.output().lines()
        .filter(line -> line.matches("[a-z-]+=\\S+"))
        .collect(Collectors.toMap(l -> l.substring(0, l.indexOf('=')), l -> l.substring(l.indexOf('=') + 1), (a, b) -> b));
  }
}
