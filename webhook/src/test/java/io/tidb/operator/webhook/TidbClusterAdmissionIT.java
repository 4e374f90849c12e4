package io.tidb.operator.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfigurationBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfigurationBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.micrometer.core.instrument.Timer;
import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.v1alpha1.cluster.ComponentConfig;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.cluster.TidbClusterStatus;
import io.tidb.operator.api.validation.cluster.TidbClusterAdmissionRules;
import io.tidb.operator.certs.KeyAlgorithm;
import io.tidb.operator.certs.RenewalPolicy;
import io.tidb.operator.certs.ServingNames;
import io.tidb.operator.testsupport.Await;
import io.tidb.operator.testsupport.ClusterAccess;
import io.tidb.operator.testsupport.KubernetesBinaries;
import io.tidb.operator.testsupport.ProjectCrds;
import io.tidb.operator.testsupport.TestNamespaces;
import io.tidb.operator.testsupport.WithKubeApiServer;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The real API server calls the webhook by URL. The webhook runs as in production secret mode: it
 * creates its own CA and serving certificate in a Secret and patches the CA bundle into the two
 * webhook configurations, which are created without one.
 */
@WithKubeApiServer
class TidbClusterAdmissionIT {

  static final String VALIDATING_WEBHOOK = "validate.tidbclusters.pingcap.com";
  static final String MUTATING_WEBHOOK = "default.tidbclusters.pingcap.com";
  /** On CREATE the mutating webhook, which runs first, refuses with everything wrong. */
  static final String INVALID_MESSAGE =
      "admission webhook \"" + MUTATING_WEBHOOK + "\" denied the request: TidbCluster \"broken\" is invalid: "
          + "metadata.annotations[tikv.tidb.pingcap.com/delete-slots]: Invalid value: \"[1, two]\": "
          + "must be a JSON array of 32-bit integers, e.g. [1,3]; "
          + "spec.pd.service.loadBalancerSourceRanges[0]: Invalid value: \"10.0.0.0/33\": "
          + "must be a CIDR such as 10.0.0.0/8 or fd00::/8; "
          + "spec.tikv.evictLeaderTimeout: Invalid value: \"5 minutes\": must be a duration such as 90s, 10m or 1h30m: "
          + "unknown unit \" minutes\" in duration \"5 minutes\"; "
          + "spec.pd.version: Required value: must not be empty: set spec.version or spec.pd.version; "
          + "spec.tikv.version: Required value: must not be empty: set spec.version or spec.tikv.version; "
          + "spec.tidb.version: Required value: must not be empty: set spec.version or spec.tidb.version";

  private static String namespace;
  private static String configurationName;
  private static WebhookApplication webhook;
  private static Path kubeconfig;

  @BeforeAll
  static void startWebhook(KubernetesClient client, ClusterAccess cluster) throws Exception {
    ProjectCrds.apply(client);
    namespace = TestNamespaces.createUnique(client, "webhook-it");
    configurationName = "tidb-webhook-it-" + namespace;
    kubeconfig = Files.createTempFile("webhook-it-kubeconfig", ".yaml");
    Files.writeString(kubeconfig, cluster.kubeConfigYaml());

    WebhookApplication.SecretSettings secret = new WebhookApplication.SecretSettings(
        namespace, "tidb-webhook-tls", ServingNames.forService("tidb-webhook", namespace),
        List.of(configurationName), List.of(configurationName),
        new RenewalPolicy(Duration.ofDays(30), Duration.ofDays(5), Duration.ofDays(7), Duration.ofDays(1),
            KeyAlgorithm.EC_P256),
        "tidb-webhook-ca", null);
    webhook = WebhookApplication.start(
        new WebhookApplication.Settings(
            new WebhookServer.Settings("127.0.0.1", 0, 4 << 20, Duration.ZERO, Duration.ofSeconds(10)),
            CertificateMode.SECRET, null, secret, Duration.ofSeconds(1)),
        List.of(new TidbClusterAdmissionRules()),
        cluster::newClient);

    // Created after the webhook started and without a caBundle: the webhook's next certificate
    // pass (every second here) injects it.
    String base = "https://127.0.0.1:" + webhook.port();
    client.resource(validating(base + "/validate")).create();
    client.resource(mutating(base + "/mutate")).create();
    Await.until("the API server to call the webhook with the injected caBundle", Duration.ofSeconds(60),
        () -> dryRunCreateError(client, load("invalid-tidbcluster.yaml")),
        message -> message.contains("is invalid"));
  }

  @AfterAll
  static void stopWebhook(KubernetesClient client) throws IOException {
    client.admissionRegistration().v1().validatingWebhookConfigurations().withName(configurationName).delete();
    client.admissionRegistration().v1().mutatingWebhookConfigurations().withName(configurationName).delete();
    if (webhook != null) {
      webhook.close();
    }
    Files.deleteIfExists(kubeconfig);
  }

  @Test
  void kubectlApplyOfAnInvalidClusterShowsEveryViolation(KubernetesClient client) throws Exception {
    Path manifest = Files.createTempFile("invalid-tidbcluster", ".yaml");
    try (InputStream in = resource("invalid-tidbcluster.yaml")) {
      Files.write(manifest, in.readAllBytes());
    }
    try {
      Kubectl result = kubectl("apply", "-n", namespace, "-f", manifest.toString());

      // kubectl lists the causes of a 422 Invalid status one per line.
      assertNotEquals(0, result.exitCode());
      assertEquals(
          String.join("\n",
              "The TidbCluster \"broken\" is invalid: ",
              "* metadata.annotations[tikv.tidb.pingcap.com/delete-slots]: Invalid value: \"[1, two]\": "
                  + "must be a JSON array of 32-bit integers, e.g. [1,3]",
              "* spec.pd.service.loadBalancerSourceRanges[0]: Invalid value: \"10.0.0.0/33\": "
                  + "must be a CIDR such as 10.0.0.0/8 or fd00::/8",
              "* spec.tikv.evictLeaderTimeout: Invalid value: \"5 minutes\": must be a duration such as 90s, 10m "
                  + "or 1h30m: unknown unit \" minutes\" in duration \"5 minutes\"",
              "* spec.pd.version: Required value: must not be empty: set spec.version or spec.pd.version",
              "* spec.tikv.version: Required value: must not be empty: set spec.version or spec.tikv.version",
              "* spec.tidb.version: Required value: must not be empty: set spec.version or spec.tidb.version"),
          result.stderr().strip());
      assertNull(tidbClusters(client).withName("broken").get());
    } finally {
      Files.deleteIfExists(manifest);
    }
  }

  @Test
  void aServerSideDryRunGetsTheSameAnswerAndStoresNothing(KubernetesClient client) {
    assertEquals(INVALID_MESSAGE, dryRunCreateError(client, load("invalid-tidbcluster.yaml")));

    TidbCluster valid = basic("dry-run-basic");
    client.resource(valid).dryRun().create();
    assertNull(tidbClusters(client).withName("dry-run-basic").get());
  }

  /** A component this operator does not run is refused, naming the field and the reason. */
  @Test
  void anUnmanagedComponentIsRefusedWithItsFieldAndReason(KubernetesClient client) {
    TidbCluster tc = basic("with-pdms");
    tc.getSpec().setPdms(java.util.List.of(ApiObjects.parse(
        "name: tso\nbaseImage: pingcap/pd\nreplicas: 1\n",
        io.tidb.operator.api.v1alpha1.cluster.PdMsSpec.class)));
    String message = dryRunCreateError(client, tc);
    assertTrue(message.contains("spec.pdms: Forbidden: PD microservices (tso, scheduling) are not"
        + " managed by this operator"), message);
    assertNull(tidbClusters(client).withName("with-pdms").get());
  }

  /** TiProxy and Pump, refused while they were not managed, are admitted now. */
  @Test
  void tiproxyAndPumpAreAdmitted(KubernetesClient client) {
    TidbCluster tc = basic("with-pump");
    tc.getSpec().setPump(ApiObjects.parse(
        "baseImage: pingcap/tidb-binlog\nreplicas: 1\nrequests: {storage: 1Gi}\n",
        io.tidb.operator.api.v1alpha1.cluster.PumpSpec.class));
    tc.getSpec().setTiproxy(ApiObjects.parse(
        "baseImage: pingcap/tiproxy\nreplicas: 1\n",
        io.tidb.operator.api.v1alpha1.cluster.TiproxySpec.class));
    client.resource(tc).dryRun().create();
    assertNull(tidbClusters(client).withName("with-pump").get());
  }

  @Test
  void aValidClusterIsStoredWithTheDefaults(KubernetesClient client) {
    client.resource(basic("basic")).create();

    TidbCluster stored = tidbClusters(client).withName("basic").get();
    assertNotNull(stored);
    assertEquals("IfNotPresent", stored.getSpec().getImagePullPolicy());
    assertEquals(Boolean.FALSE, stored.getSpec().getTlsCluster().getEnabled());
    assertEquals(1, stored.getSpec().getTikv().getSpareVolReplaceReplicas());
    assertEquals(3, ApiObjects.toTree(stored).at("/spec/tidb/config/log/file/max-backups").asInt());
    // What the user wrote is kept.
    assertEquals(3, stored.getSpec().getPd().getMaxFailoverCount());
    assertEquals("v8.5.7", stored.getSpec().getVersion());
    assertEquals(3, stored.getSpec().getTikv().getReplicas());
    assertEquals(256, ApiObjects.toTree(stored).at("/spec/tikv/config/rocksdb/max-open-files").asInt());
  }

  @Test
  void changingPdScheduleOnUpdateIsDenied(KubernetesClient client) {
    TidbCluster tc = basic("schedule");
    tc.getSpec().getPd().setConfig(pdConfig("30m"));
    client.resource(tc).create();

    KubernetesClientException denied = assertThrows(KubernetesClientException.class,
        () -> tidbClusters(client).withName("schedule").edit(current -> {
          current.getSpec().getPd().setConfig(pdConfig("1h"));
          return current;
        }));

    assertEquals(422, denied.getCode());
    assertEquals(
        "admission webhook \"" + VALIDATING_WEBHOOK + "\" denied the request: TidbCluster \"schedule\" is invalid: "
            + "spec.pd.config.schedule: Invalid value: \"{\"max-store-down-time\":\"1h\"}\": PD keeps schedule "
            + "settings in etcd after bootstrap, so they are immutable here; change them with pd-ctl instead",
        denied.getStatus().getMessage());
    // Other changes still go through.
    tidbClusters(client).withName("schedule").edit(current -> {
      current.getSpec().getTikv().setReplicas(3);
      return current;
    });
    assertEquals(3, tidbClusters(client).withName("schedule").get().getSpec().getTikv().getReplicas());
  }

  @Test
  void statusUpdatesDoNotGoThroughTheWebhook(KubernetesClient client) {
    client.resource(basic("status")).create();
    long beforeSpecUpdate = admissionRequests();
    tidbClusters(client).withName("status").edit(current -> {
      current.getSpec().getTidb().setReplicas(current.getSpec().getTidb().getReplicas() + 1);
      return current;
    });
    long beforeStatusUpdate = admissionRequests();

    TidbCluster current = tidbClusters(client).withName("status").get();
    TidbClusterStatus status = new TidbClusterStatus();
    status.setClusterID("7000000000000000001");
    current.setStatus(status);
    client.resource(current).updateStatus();

    assertTrue(beforeStatusUpdate > beforeSpecUpdate, "a spec update is seen by the webhook");
    assertEquals("7000000000000000001", tidbClusters(client).withName("status").get().getStatus().getClusterID());
    assertEquals(beforeStatusUpdate, admissionRequests(), "the status update reached the webhook");
  }

  @Test
  void metadataOnlyUpdatesSkipTheWebhookButRuleBearingAnnotationsDoNot(KubernetesClient client) {
    client.resource(basic("metadata")).create();

    long before = admissionRequests();
    tidbClusters(client).withName("metadata").edit(current -> {
      current.getMetadata().getAnnotations().put("example.com/owner", "team-a");
      current.getMetadata().getFinalizers().add("example.com/keep");
      return current;
    });
    assertEquals(before, admissionRequests(), "an annotation-only update reached the webhook");

    tidbClusters(client).withName("metadata").edit(current -> {
      current.getMetadata().getAnnotations().put("tikv.tidb.pingcap.com/delete-slots", "[1]");
      return current;
    });
    assertEquals(before + 1, admissionRequests(), "a delete-slots annotation is judged by the webhook");

    tidbClusters(client).withName("metadata").edit(current -> {
      current.getMetadata().getFinalizers().clear();
      return current;
    });
  }

  private static ComponentConfig pdConfig(String maxStoreDownTime) {
    return ComponentConfig.of(ApiObjects.toTree(
        java.util.Map.of("schedule", java.util.Map.of("max-store-down-time", maxStoreDownTime))));
  }

  private static long admissionRequests() {
    return webhook.metrics().registry().find(WebhookMetrics.ADMISSION_TIMER).timers().stream()
        .mapToLong(Timer::count).sum();
  }

  private static TidbCluster basic(String name) {
    TidbCluster tc = load("basic-tidbcluster.yaml");
    tc.getMetadata().setName(name);
    return tc;
  }

  private static TidbCluster load(String resourceName) {
    try (InputStream in = resource(resourceName)) {
      TidbCluster tc = ApiObjects.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), TidbCluster.class);
      tc.getMetadata().setNamespace(namespace);
      return tc;
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static String dryRunCreateError(KubernetesClient client, TidbCluster tc) {
    try {
      client.resource(tc).dryRun().create();
      return "(created)";
    } catch (KubernetesClientException e) {
      return e.getStatus() == null ? e.getMessage() : e.getStatus().getMessage();
    }
  }

  private static NonNamespaceOperation<TidbCluster, KubernetesResourceList<TidbCluster>, Resource<TidbCluster>>
      tidbClusters(KubernetesClient client) {
    return client.resources(TidbCluster.class).inNamespace(namespace);
  }

  private record Kubectl(int exitCode, String stdout, String stderr) {}

  private static Kubectl kubectl(String... args) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(KubernetesBinaries.fromEnvironment().binary("kubectl").toString());
    command.add("--kubeconfig=" + kubeconfig);
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command).start();
    byte[] out = process.getInputStream().readAllBytes();
    byte[] err = process.getErrorStream().readAllBytes();
    assertTrue(process.waitFor(60, TimeUnit.SECONDS), "kubectl finished");
    return new Kubectl(process.exitValue(), new String(out, StandardCharsets.UTF_8),
        new String(err, StandardCharsets.UTF_8));
  }

  private static ValidatingWebhookConfiguration validating(String url) {
    return new ValidatingWebhookConfigurationBuilder()
        .withNewMetadata().withName(configurationName).endMetadata()
        .addNewWebhook()
        .withName(VALIDATING_WEBHOOK)
        .withNewClientConfig().withUrl(url).endClientConfig()
        // tidbclusters only, not tidbclusters/status: status writes are the controller's.
        .addNewRule().withApiGroups("pingcap.com").withApiVersions("v1alpha1").withResources("tidbclusters")
        .withOperations("CREATE", "UPDATE").withScope("Namespaced").endRule()
        .withNewNamespaceSelector().addToMatchLabels("kubernetes.io/metadata.name", namespace).endNamespaceSelector()
        .addNewMatchCondition().withName(WebhookMatchConditions.NAME)
        .withExpression(WebhookMatchConditions.EXPRESSION).endMatchCondition()
        .withFailurePolicy("Fail").withSideEffects("None").withMatchPolicy("Equivalent")
        .withAdmissionReviewVersions("v1").withTimeoutSeconds(10)
        .endWebhook()
        .build();
  }

  private static MutatingWebhookConfiguration mutating(String url) {
    return new MutatingWebhookConfigurationBuilder()
        .withNewMetadata().withName(configurationName).endMetadata()
        .addNewWebhook()
        .withName(MUTATING_WEBHOOK)
        .withNewClientConfig().withUrl(url).endClientConfig()
        .addNewRule().withApiGroups("pingcap.com").withApiVersions("v1alpha1").withResources("tidbclusters")
        .withOperations("CREATE").withScope("Namespaced").endRule()
        .withNewNamespaceSelector().addToMatchLabels("kubernetes.io/metadata.name", namespace).endNamespaceSelector()
        .withFailurePolicy("Fail").withSideEffects("None").withMatchPolicy("Equivalent")
        .withReinvocationPolicy("Never").withAdmissionReviewVersions("v1").withTimeoutSeconds(10)
        .endWebhook()
        .build();
  }

  private static InputStream resource(String name) {
    return TidbClusterAdmissionIT.class.getResourceAsStream("/admission/" + name);
  }

}
