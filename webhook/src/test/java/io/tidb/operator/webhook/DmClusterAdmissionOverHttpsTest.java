package io.tidb.operator.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.zjsonpatch.JsonPatch;
import io.tidb.operator.api.validation.dm.DmClusterAdmissionRules;
import java.net.http.HttpResponse;
import java.util.Base64;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** DMCluster AdmissionReviews over real HTTPS: defaults on create, every violation on create and update. */
class DmClusterAdmissionOverHttpsTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  private static final String BASIC = """
      apiVersion: pingcap.com/v1alpha1
      kind: DMCluster
      metadata: {name: basic, namespace: demo}
      spec:
        version: v8.5.7
        pvReclaimPolicy: Retain
        discovery: {}
        master: {baseImage: pingcap/dm, maxFailoverCount: 0, replicas: 1, storageSize: 10Gi, requests: {}, config: {}}
        worker: {baseImage: pingcap/dm, maxFailoverCount: 0, replicas: 1, storageSize: 100Gi, requests: {}, config: {}}
      """;
  private static final String BROKEN = """
      apiVersion: pingcap.com/v1alpha1
      kind: DMCluster
      metadata: {name: broken, namespace: demo}
      spec:
        version: v1.0.7
        master: {replicas: 3, storageSize: lots}
        worker: {replicas: 1, storageSize: huge}
      """;
  private static RunningWebhook webhook;

  @BeforeAll
  static void start() {
    webhook = new RunningWebhook(new DmClusterAdmissionRules());
  }

  @AfterAll
  static void stop() {
    webhook.close();
  }

  @Test
  void theUpstreamManifestIsAllowedAndPatchedWithTheMissingDefaults() throws Exception {
    JsonNode request = review("CREATE", BASIC, null);
    assertTrue(send("/validate", request).at("/response/allowed").asBoolean());
    JsonNode response = send("/mutate", request);
    assertTrue(response.at("/response/allowed").asBoolean());
    JsonNode patch = JSON.readTree(Base64.getDecoder().decode(response.at("/response/patch").asText()));
    JsonNode patched = JsonPatch.apply(patch, request.at("/request/object"));
    assertEquals("IfNotPresent", patched.at("/spec/imagePullPolicy").asText());
    assertFalse(patched.at("/spec/tlsCluster/enabled").asBoolean(true));
    assertFalse(patched.at("/spec/enablePVReclaim").asBoolean(true));
    assertEquals(0, patched.at("/spec/master/maxFailoverCount").asInt(), "the user's 0 is kept");
    assertEquals("10Gi", patched.at("/spec/master/storageSize").asText());
  }

  @Test
  void anInvalidClusterIsDeniedOnCreateWithEveryViolation() throws Exception {
    JsonNode response = send("/validate", review("CREATE", BROKEN, null));
    assertFalse(response.at("/response/allowed").asBoolean());
    assertEquals(422, response.at("/response/status/code").asInt());
    assertEquals("DMCluster \"broken\" is invalid: "
        + "spec.version: Invalid value: \"v1.0.7\": DM 1.x is not supported; use v2.0.0 or later; "
        + "spec.master.storageSize: Invalid value: \"lots\": must be a Kubernetes quantity such as 10Gi; "
        + "spec.worker.storageSize: Invalid value: \"huge\": must be a Kubernetes quantity such as 10Gi",
        response.at("/response/status/message").asText());
    assertEquals(3, response.at("/response/status/details/causes").size());
  }

  @Test
  void anUpdateThatBreaksARuleIsDenied() throws Exception {
    String dropped = BASIC.replace("replicas: 1, storageSize: 10Gi", "replicas: 3");
    JsonNode response = send("/validate", review("UPDATE", dropped, BASIC));
    assertFalse(response.at("/response/allowed").asBoolean());
    assertEquals("DMCluster \"basic\" is invalid: spec.master.storageSize: Required value: "
        + "dm-master keeps its data on a volume: set a size such as 10Gi",
        response.at("/response/status/message").asText());
  }

  private static JsonNode review(String operation, String objectYaml, String oldYaml) throws Exception {
    ObjectNode gvk = JSON.createObjectNode().put("group", "pingcap.com").put("version", "v1alpha1");
    ObjectNode kind = gvk.deepCopy().put("kind", "DMCluster");
    ObjectNode resource = gvk.deepCopy().put("resource", "dmclusters");
    ObjectNode req = JSON.createObjectNode()
        .put("uid", "6c1f3a2e-0001-4d1e-9a70-0000000000d1");
    req.set("kind", kind);
    req.set("resource", resource);
    req.set("requestKind", kind);
    req.set("requestResource", resource);
    JsonNode object = YAML.readTree(objectYaml);
    req.put("name", object.at("/metadata/name").asText())
        .put("namespace", "demo")
        .put("operation", operation)
        .put("dryRun", false);
    req.set("userInfo", JSON.createObjectNode().put("username", "kubernetes-admin"));
    req.set("object", object);
    if (oldYaml != null) {
      req.set("oldObject", YAML.readTree(oldYaml));
    }
    ObjectNode review = JSON.createObjectNode()
        .put("apiVersion", "admission.k8s.io/v1").put("kind", "AdmissionReview");
    review.set("request", req);
    return review;
  }

  private static JsonNode send(String path, JsonNode review) throws Exception {
    HttpResponse<String> response = webhook.post(path, JSON.writeValueAsBytes(review));
    assertEquals(200, response.statusCode(), response.body());
    return JSON.readTree(response.body());
  }
}
