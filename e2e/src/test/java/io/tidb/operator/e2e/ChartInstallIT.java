package io.tidb.operator.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.tidb.operator.testsupport.Await;
import io.tidb.operator.testsupport.ClusterAccess;
import io.tidb.operator.testsupport.Kubeconfigs;
import io.tidb.operator.testsupport.ProjectCrds;
import io.tidb.operator.testsupport.TestNamespaces;
import io.tidb.operator.testsupport.WithLocalControlPlane;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The default (cluster-scoped) install of the chart on the local control plane. The images cannot
 * run here, so the webhook never injects its CA; the test injects one the way the webhook does (a
 * JSON patch on each configuration) and checks that {@code helm upgrade} keeps it.
 *
 * <p>No TidbCluster is created while this release's webhook configurations exist: they point at
 * the in-cluster Service, which the API server would dial at its cluster IP. The cluster that must
 * survive the uninstall is created before the install.
 */
@WithLocalControlPlane
class ChartInstallIT {

  static final String FAKE_CA = Base64.getEncoder().encodeToString(
      "-----BEGIN CERTIFICATE-----\nnot a real CA, only checked for being kept\n-----END CERTIFICATE-----\n".getBytes());

  final KubernetesClient client;
  final HelmCli helm = HelmCli.forProjectChart();
  final Path kubeconfig;
  final String operatorNs;
  final String clusterNs;
  final String release;

  ChartInstallIT(KubernetesClient client, ClusterAccess access) {
    this.client = client;
    this.kubeconfig = Kubeconfigs.write("admin-", access.kubeConfigYaml());
    ProjectCrds.apply(client);
    this.operatorNs = TestNamespaces.createUnique(client, "chart-operator");
    this.clusterNs = TestNamespaces.createUnique(client, "chart-cluster");
    this.release = operatorNs;
  }

  @AfterEach
  void cleanUp() {
    helm.uninstall(kubeconfig, release, operatorNs);
    client.namespaces().withName(operatorNs).delete();
    client.namespaces().withName(clusterNs).delete();
  }

  @Test
  void installCreatesEverythingUpgradeKeepsTheCaBundleUninstallKeepsClustersAndVolumes() {
    GenericKubernetesResource cluster = client.genericKubernetesResources(EndToEndIT.TIDB_CLUSTERS)
        .inNamespace(clusterNs).resource(new GenericKubernetesResourceBuilder()
            .withApiVersion("pingcap.com/v1alpha1").withKind("TidbCluster")
            .withNewMetadata().withName("keep").endMetadata()
            .addToAdditionalProperties("spec", Map.of("version", "v8.5.7",
                "pd", Map.of("baseImage", "pingcap/pd", "replicas", 1, "requests", Map.of("storage", "1Gi"))))
            .build())
        .create();
    PersistentVolumeClaim data = client.persistentVolumeClaims().inNamespace(clusterNs).resource(
        new PersistentVolumeClaimBuilder()
            .withNewMetadata().withName("pd-keep-pd-0")
            .addToLabels(Map.of("app.kubernetes.io/instance", "keep", "app.kubernetes.io/component", "pd",
                "app.kubernetes.io/managed-by", "tidb-operator")).endMetadata()
            .withNewSpec().withAccessModes("ReadWriteOnce")
            .withNewResources().addToRequests("storage", new Quantity("1Gi")).endResources().endSpec()
            .build()).create();

    helm.install(kubeconfig, release, operatorNs, "").requireSuccess();

    String controller = release + "-tidb-operator-controller";
    String webhook = release + "-tidb-operator-webhook";
    assertNotNull(client.rbac().clusterRoles().withName(controller).get());
    assertNotNull(client.rbac().clusterRoleBindings().withName(controller).get());
    assertNotNull(client.rbac().clusterRoles().withName(webhook).get());
    assertNotNull(client.rbac().roles().inNamespace(operatorNs).withName(webhook).get());
    assertNotNull(client.serviceAccounts().inNamespace(operatorNs).withName(controller).get());
    assertNotNull(client.serviceAccounts().inNamespace(operatorNs).withName(webhook).get());
    assertNotNull(client.services().inNamespace(operatorNs).withName(webhook).get());
    assertNotNull(client.policy().v1().podDisruptionBudget().inNamespace(operatorNs).withName(webhook).get());
    assertEquals(webhook, client.admissionRegistration().v1().validatingWebhookConfigurations().withName(webhook).get()
        .getWebhooks().get(0).getClientConfig().getService().getName());
    assertNotNull(client.admissionRegistration().v1().mutatingWebhookConfigurations().withName(webhook).get());
    for (String component : List.of("controller", "webhook")) {
      int replicas = component.equals("webhook") ? 2 : 1;
      List<Pod> pods = Await.until(replicas + " " + component + " pod(s) scheduled and Running", Duration.ofSeconds(90),
          () -> client.pods().inNamespace(operatorNs).withLabel("app.kubernetes.io/component", component).list().getItems(),
          list -> list.size() == replicas && list.stream().allMatch(p -> "Running".equals(p.getStatus().getPhase())));
      pods.forEach(p -> assertNotNull(p.getSpec().getNodeName()));
    }

    // The upgrade procedure of docs/operations.md: the CRD first, by server-side apply, then the chart.
    CommandResult crdUpgrade = new KubectlCli(kubeconfig).run("apply", "--server-side", "--force-conflicts",
        "-f", helm.chart().resolve("crds").toString()).requireSuccess();
    assertTrue(crdUpgrade.stdout().contains("customresourcedefinition.apiextensions.k8s.io/tidbclusters.pingcap.com serverside-applied"),
        crdUpgrade.describe());
    injectCaBundle(webhook);
    helm.upgrade(kubeconfig, release, operatorNs, "webhook: {timeoutSeconds: 8}\n").requireSuccess();
    var validating = client.admissionRegistration().v1().validatingWebhookConfigurations().withName(webhook).get();
    var mutating = client.admissionRegistration().v1().mutatingWebhookConfigurations().withName(webhook).get();
    assertEquals(8, validating.getWebhooks().get(0).getTimeoutSeconds(), "the upgrade changed the configuration");
    assertEquals(FAKE_CA, validating.getWebhooks().get(0).getClientConfig().getCaBundle(), "and kept the CA bundle");
    assertEquals(FAKE_CA, mutating.getWebhooks().get(0).getClientConfig().getCaBundle(), "and kept the CA bundle");

    helm.uninstall(kubeconfig, release, operatorNs).requireSuccess();

    assertNull(client.admissionRegistration().v1().validatingWebhookConfigurations().withName(webhook).get());
    assertNull(client.admissionRegistration().v1().mutatingWebhookConfigurations().withName(webhook).get());
    assertNull(client.rbac().clusterRoles().withName(controller).get());
    assertNull(client.rbac().clusterRoleBindings().withName(webhook).get());
    assertNull(client.apps().deployments().inNamespace(operatorNs).withName(controller).get());
    GenericKubernetesResource kept = client.genericKubernetesResources(EndToEndIT.TIDB_CLUSTERS)
        .inNamespace(clusterNs).withName("keep").get();
    assertNotNull(kept, "the TidbCluster stays");
    assertEquals(cluster.getMetadata().getUid(), kept.getMetadata().getUid());
    PersistentVolumeClaim keptData = client.persistentVolumeClaims().inNamespace(clusterNs).withName("pd-keep-pd-0").get();
    assertNotNull(keptData, "its volume claim stays");
    assertEquals(data.getMetadata().getUid(), keptData.getMetadata().getUid());
    assertNull(keptData.getMetadata().getDeletionTimestamp());
    assertTrue(client.apiextensions().v1().customResourceDefinitions().withName("tidbclusters.pingcap.com").get() != null,
        "Helm never deletes the CRD");
  }

  /** What the webhook's certificate bootstrap does: a JSON patch of each webhook's caBundle. */
  void injectCaBundle(String name) {
    String patch = "[{\"op\":\"add\",\"path\":\"/webhooks/0/clientConfig/caBundle\",\"value\":\"" + FAKE_CA + "\"}]";
    client.admissionRegistration().v1().validatingWebhookConfigurations().withName(name)
        .patch(PatchContext.of(PatchType.JSON), patch);
    client.admissionRegistration().v1().mutatingWebhookConfigurations().withName(name)
        .patch(PatchContext.of(PatchType.JSON), patch);
  }
}
