package io.tidb.operator.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfigurationBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.testsupport.ProjectCrds;
import io.tidb.operator.testsupport.TestNamespaces;
import io.tidb.operator.testsupport.WithKubeApiServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * While the webhook is unreachable (its configuration points at a port nobody listens on), the
 * real API server still lets through updates that change nothing the rules read, and refuses the
 * rest with a message naming the webhook.
 */
@WithKubeApiServer
class WebhookOutageIT {

  private static final String NAME = "outage-webhook-it";
  private static String namespace;

  @BeforeAll
  static void configureAnUnreachableWebhook(KubernetesClient client) throws IOException {
    ProjectCrds.apply(client);
    namespace = TestNamespaces.createUnique(client, "webhook-outage");
    TidbCluster tc = basic();
    client.resource(tc).create(); // before the webhook exists
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      closedPort = socket.getLocalPort();
    }
    client.resource(new ValidatingWebhookConfigurationBuilder()
        .withNewMetadata().withName(NAME + "-" + namespace).endMetadata()
        .addNewWebhook()
        .withName(TidbClusterAdmissionIT.VALIDATING_WEBHOOK)
        .withNewClientConfig().withUrl("https://127.0.0.1:" + closedPort + "/validate").endClientConfig()
        .addNewRule().withApiGroups("pingcap.com").withApiVersions("v1alpha1").withResources("tidbclusters")
        .withOperations("CREATE", "UPDATE").withScope("Namespaced").endRule()
        .withNewNamespaceSelector().addToMatchLabels("kubernetes.io/metadata.name", namespace).endNamespaceSelector()
        .addNewMatchCondition().withName(WebhookMatchConditions.NAME)
        .withExpression(WebhookMatchConditions.EXPRESSION).endMatchCondition()
        .withFailurePolicy("Fail").withSideEffects("None").withAdmissionReviewVersions("v1")
        .withTimeoutSeconds(5)
        .endWebhook()
        .build()).create();
  }

  @AfterAll
  static void removeIt(KubernetesClient client) {
    client.admissionRegistration().v1().validatingWebhookConfigurations().withName(NAME + "-" + namespace).delete();
  }

  @Test
  void metadataOnlyUpdatesGoThroughAndTheRestFailNamingTheWebhook(KubernetesClient client) {
    var clusters = client.resources(TidbCluster.class).inNamespace(namespace);
    clusters.withName("outage").edit(current -> {
      current.getMetadata().getAnnotations().put("example.com/owner", "team-a");
      return current;
    });
    assertEquals("team-a", clusters.withName("outage").get().getMetadata().getAnnotations().get("example.com/owner"));

    KubernetesClientException refused = assertThrows(KubernetesClientException.class,
        () -> clusters.withName("outage").edit(current -> {
          current.getSpec().getTidb().setReplicas(2);
          return current;
        }));
    String message = refused.getStatus() == null ? refused.getMessage() : refused.getStatus().getMessage();
    assertTrue(message.contains("failed calling webhook \"" + TidbClusterAdmissionIT.VALIDATING_WEBHOOK + "\""),
        message);
    assertEquals(1, clusters.withName("outage").get().getSpec().getTidb().getReplicas());
  }

  private static TidbCluster basic() {
    try (InputStream in = WebhookOutageIT.class.getResourceAsStream("/admission/basic-tidbcluster.yaml")) {
      TidbCluster tc = ApiObjects.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), TidbCluster.class);
      tc.getMetadata().setName("outage");
      tc.getMetadata().setNamespace(namespace);
      tc.getSpec().getTidb().setReplicas(1);
      return tc;
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
