package io.tidb.operator.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequest;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfigurationBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The API server calls a ValidatingWebhookConfiguration whose clientConfig is
 * {@code url: https://127.0.0.1:<port>/validate} with a {@code caBundle}, and enforces its answer.
 */
@WithKubeApiServer
class ValidatingWebhookIT {

  private static final String DENY_LABEL = "webhook-test/deny";

  @Test
  void apiServerCallsTheLoopbackWebhookAndEnforcesItsDecision(KubernetesClient client, @TempDir Path dir)
      throws Exception {
    String namespace = TestNamespaces.createUnique(client, "webhook");
    try (RecordingAdmissionWebhook webhook = new RecordingAdmissionWebhook(dir,
        request -> "true".equals(RecordingAdmissionWebhook.labels(request).get(DENY_LABEL))
            ? "denied by the test webhook: label " + DENY_LABEL + "=true"
            : null)) {
      ValidatingWebhookConfiguration configuration = client.resource(configuration(namespace, webhook)).create();
      try {
        // The API server picks new webhook configurations up asynchronously: probe with dry-run creates.
        Await.until("the webhook to be called", Duration.ofSeconds(30),
            () -> dryRunDenied(client, namespace), denied -> denied);

        KubernetesClientException denial = assertThrows(KubernetesClientException.class,
            () -> client.resource(configMap(namespace, "denied", true)).create());
        assertTrue(denial.getMessage().contains("denied the request: denied by the test webhook: label "
            + DENY_LABEL + "=true"), denial.getMessage());
        assertNull(client.configMaps().inNamespace(namespace).withName("denied").get());

        client.resource(configMap(namespace, "allowed", false)).create();
        assertNotNull(client.configMaps().inNamespace(namespace).withName("allowed").get());

        AdmissionRequest seen = webhook.requests().stream()
            .filter(r -> "allowed".equals(r.getName())).findFirst().orElseThrow();
        assertEquals("CREATE", seen.getOperation());
        assertEquals(namespace, seen.getNamespace());
        assertEquals("ConfigMap", seen.getKind().getKind());
        assertEquals(Boolean.FALSE, seen.getDryRun());
      } finally {
        client.resource(configuration).delete();
      }
    }
  }

  private static boolean dryRunDenied(KubernetesClient client, String namespace) {
    try {
      client.resource(configMap(namespace, "probe", true)).dryRun().create();
      return false;
    } catch (KubernetesClientException e) {
      if (e.getMessage().contains("denied by the test webhook")) {
        return true;
      }
      throw e;
    }
  }

  private static ValidatingWebhookConfiguration configuration(String namespace, RecordingAdmissionWebhook webhook) {
    String caBundle = Base64.getEncoder().encodeToString(webhook.certificatePem().getBytes(StandardCharsets.UTF_8));
    return new ValidatingWebhookConfigurationBuilder()
        .withNewMetadata().withName("test-webhook-" + namespace).endMetadata()
        .addNewWebhook()
        .withName("configmaps.test.tidb.io")
        .withNewClientConfig().withUrl(webhook.url()).withCaBundle(caBundle).endClientConfig()
        .addNewRule()
        .withOperations("CREATE").withApiGroups("").withApiVersions("v1").withResources("configmaps")
        .endRule()
        // Only this test's namespace: the API server is shared by every test class in the JVM.
        .withNewNamespaceSelector().addToMatchLabels("kubernetes.io/metadata.name", namespace).endNamespaceSelector()
        .withFailurePolicy("Fail")
        .withSideEffects("None")
        .withAdmissionReviewVersions("v1")
        .withTimeoutSeconds(5)
        .endWebhook()
        .build();
  }

  private static ConfigMap configMap(String namespace, String name, boolean deny) {
    return new ConfigMapBuilder()
        .withNewMetadata().withNamespace(namespace).withName(name)
        .withLabels(Map.of(DENY_LABEL, Boolean.toString(deny))).endMetadata()
        .addToData("key", "value")
        .build();
  }
}
