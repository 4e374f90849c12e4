package io.tidb.operator.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.zjsonpatch.JsonPatch;
import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.validation.cluster.TidbClusterAdmissionRules;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** AdmissionReview fixtures sent over real HTTPS to a running server. */
class AdmissionOverHttpsTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String INVALID_MESSAGE =
      "TidbCluster \"broken\" is invalid: "
          + "metadata.annotations[tikv.tidb.pingcap.com/delete-slots]: Invalid value: \"[1, two]\": "
          + "must be a JSON array of 32-bit integers, e.g. [1,3]; "
          + "spec.pd.service.loadBalancerSourceRanges[0]: Invalid value: \"10.0.0.0/33\": "
          + "must be a CIDR such as 10.0.0.0/8 or fd00::/8; "
          + "spec.tikv.evictLeaderTimeout: Invalid value: \"5 minutes\": must be a duration such as 90s, 10m or 1h30m: "
          + "unknown unit \" minutes\" in duration \"5 minutes\"; "
          + "spec.pd.version: Required value: must not be empty: set spec.version or spec.pd.version; "
          + "spec.tikv.version: Required value: must not be empty: set spec.version or spec.tikv.version; "
          + "spec.tidb.version: Required value: must not be empty: set spec.version or spec.tidb.version";
  private static RunningWebhook webhook;

  @BeforeAll
  static void start() {
    webhook = new RunningWebhook(new TidbClusterAdmissionRules());
  }

  @AfterAll
  static void stop() {
    webhook.close();
  }

  @Test
  void aValidClusterIsAllowedWithItsUidEchoed() throws Exception {
    JsonNode response = admit("/validate", "create-basic.json");

    assertEquals("admission.k8s.io/v1", response.path("apiVersion").asText());
    assertEquals("AdmissionReview", response.path("kind").asText());
    assertEquals("0d3a5c8e-0001-4c1e-9a70-000000000001", response.at("/response/uid").asText());
    assertTrue(response.at("/response/allowed").asBoolean());
    assertTrue(response.at("/response/status").isMissingNode());
    assertTrue(response.at("/response/warnings").isMissingNode());
  }

  @Test
  void anInvalidClusterIsDeniedWithEveryViolationInOneMessage() throws Exception {
    JsonNode response = admit("/validate", "create-invalid.json");

    assertEquals("0d3a5c8e-0002-4c1e-9a70-000000000002", response.at("/response/uid").asText());
    assertFalse(response.at("/response/allowed").asBoolean());
    assertEquals(422, response.at("/response/status/code").asInt());
    assertEquals("Invalid", response.at("/response/status/reason").asText());
    assertEquals("Failure", response.at("/response/status/status").asText());
    assertEquals(INVALID_MESSAGE, response.at("/response/status/message").asText());
    JsonNode causes = response.at("/response/status/details/causes");
    assertEquals(6, causes.size());
    assertEquals("spec.pd.service.loadBalancerSourceRanges[0]", causes.get(1).path("field").asText());
    assertEquals("FieldValueInvalid", causes.get(1).path("reason").asText());
    assertEquals(
        "Invalid value: \"10.0.0.0/33\": must be a CIDR such as 10.0.0.0/8 or fd00::/8",
        causes.get(1).path("message").asText());
    assertEquals("FieldValueRequired", causes.get(3).path("reason").asText());
    assertEquals("broken", response.at("/response/status/details/name").asText());
    assertEquals("pingcap.com", response.at("/response/status/details/group").asText());
    assertEquals("TidbCluster", response.at("/response/status/details/kind").asText());
  }

  @Test
  void dryRunGetsExactlyTheSameAnswer() {
    HttpResponse<String> real = webhook.post("/validate", RunningWebhook.fixture("create-invalid.json"));
    HttpResponse<String> dry = webhook.post("/validate", RunningWebhook.fixture("create-invalid-dry-run.json"));

    assertEquals(200, dry.statusCode());
    assertEquals(real.body(), dry.body());
  }

  @Test
  void changingPdScheduleOnUpdateIsDenied() throws Exception {
    JsonNode response = admit("/validate", "update-pd-schedule.json");

    assertFalse(response.at("/response/allowed").asBoolean());
    assertEquals(422, response.at("/response/status/code").asInt());
    assertEquals(
        "TidbCluster \"basic\" is invalid: spec.pd.config.schedule: Invalid value: "
            + "\"{\"max-store-down-time\":\"1h\"}\": PD keeps schedule settings in etcd after bootstrap, "
            + "so they are immutable here; change them with pd-ctl instead",
        response.at("/response/status/message").asText());
  }

  @Test
  void otherChangesOnUpdateAreAllowed() throws Exception {
    JsonNode response = admit("/validate", "update-scale-tikv.json");

    assertEquals("0d3a5c8e-0004-4c1e-9a70-000000000004", response.at("/response/uid").asText());
    assertTrue(response.at("/response/allowed").asBoolean());
  }

  @Test
  void deprecatedFieldsComeBackAsWarnings() throws Exception {
    JsonNode response = admit("/validate", "create-deprecated-services.json");

    assertTrue(response.at("/response/allowed").asBoolean());
    assertEquals(
        List.of("spec.services is deprecated; use the service field of each component, e.g. spec.tidb.service"),
        JSON.convertValue(response.at("/response/warnings"), List.class));
  }

  @Test
  void creationIsPatchedWithTheDefaults() throws Exception {
    JsonNode request = JSON.readTree(RunningWebhook.fixture("create-basic.json"));
    JsonNode response = admit("/mutate", "create-basic.json");

    assertTrue(response.at("/response/allowed").asBoolean());
    assertEquals("JSONPatch", response.at("/response/patchType").asText());
    JsonNode patch = JSON.readTree(Base64.getDecoder().decode(response.at("/response/patch").asText()));
    assertFalse(patch.toString().contains("null"), "no null values or ops: " + patch);
    JsonNode original = request.at("/request/object");
    JsonNode patched = JsonPatch.apply(patch, original);

    TidbCluster expected = new TidbClusterAdmissionRules()
        .withDefaults(ApiObjects.fromTree(original, TidbCluster.class));
    assertEquals(ApiObjects.toTree(expected), ApiObjects.toTree(ApiObjects.fromTree(patched, TidbCluster.class)));
    // Spot checks of what the defaults are.
    assertEquals("IfNotPresent", patched.at("/spec/imagePullPolicy").asText());
    assertFalse(patched.at("/spec/tlsCluster/enabled").asBoolean(true));
    assertEquals(3, patched.at("/spec/tidb/config/log/file/max-backups").asInt());
    assertEquals(1, patched.at("/spec/tikv/spareVolReplaceReplicas").asInt());
    // Everything the user wrote is still there.
    assertEquals("v8.5.7", patched.at("/spec/version").asText());
    assertEquals(256, patched.at("/spec/tikv/config/rocksdb/max-open-files").asInt());
    assertEquals("demo", patched.at("/metadata/namespace").asText());
  }

  @Test
  void anAlreadyDefaultedObjectGetsNoPatchAtAll() throws Exception {
    JsonNode request = JSON.readTree(RunningWebhook.fixture("create-basic.json"));
    JsonNode first = admit("/mutate", "create-basic.json");
    JsonNode patch = JSON.readTree(Base64.getDecoder().decode(first.at("/response/patch").asText()));
    ((com.fasterxml.jackson.databind.node.ObjectNode) request.get("request"))
        .set("object", JsonPatch.apply(patch, request.at("/request/object")));

    HttpResponse<String> again = webhook.post("/mutate", JSON.writeValueAsBytes(request));

    JsonNode response = JSON.readTree(again.body());
    assertTrue(response.at("/response/allowed").asBoolean());
    assertTrue(response.at("/response/patch").isMissingNode(), again.body());
    assertTrue(response.at("/response/patchType").isMissingNode(), again.body());
  }

  @Test
  void updatesAreNotMutated() throws Exception {
    JsonNode response = admit("/mutate", "update-scale-tikv.json");

    assertTrue(response.at("/response/allowed").asBoolean());
    assertTrue(response.at("/response/patch").isMissingNode());
  }

  @Test
  void deletionIsAllowed() throws Exception {
    JsonNode response = admit("/validate", "delete.json");

    assertEquals("0d3a5c8e-0006-4c1e-9a70-000000000006", response.at("/response/uid").asText());
    assertTrue(response.at("/response/allowed").asBoolean());
  }

  @Test
  void statusSubresourceUpdatesAreNotChecked() throws Exception {
    assertTrue(admit("/validate", "update-status-subresource.json").at("/response/allowed").asBoolean());
  }

  @Test
  void aKindThatIsNotServedIsRefusedWithTheReason() throws Exception {
    JsonNode response = admit("/validate", "create-unserved-kind.json");

    assertEquals("0d3a5c8e-0008-4c1e-9a70-000000000008", response.at("/response/uid").asText());
    assertFalse(response.at("/response/allowed").asBoolean());
    assertEquals(400, response.at("/response/status/code").asInt());
    assertEquals("BadRequest", response.at("/response/status/reason").asText());
    assertEquals(
        "this webhook does not serve pingcap.com/v1alpha1 dmclusters; it serves [pingcap.com/v1alpha1 tidbclusters]",
        response.at("/response/status/message").asText());
  }

  @Test
  void aMissingObjectIsRefusedWithTheReason() throws Exception {
    JsonNode response = admit("/validate", "create-missing-object.json");

    assertFalse(response.at("/response/allowed").asBoolean());
    assertEquals(400, response.at("/response/status/code").asInt());
    assertEquals("request.object is missing", response.at("/response/status/message").asText());
  }

  @Test
  void aWronglyTypedFieldIsReportedLikeTheApiServerWouldWithTheRuleViolations() throws Exception {
    // The mutating webhook runs before the schema check: it must not default the field away.
    for (String endpoint : List.of("/mutate", "/validate")) {
      JsonNode response = admit(endpoint, "create-wrong-type.json");

      assertFalse(response.at("/response/allowed").asBoolean(), endpoint);
      assertEquals(422, response.at("/response/status/code").asInt(), endpoint);
      assertEquals("TidbCluster \"basic\" is invalid: spec.pd.replicas: Invalid value: \"three\":"
              + " must be of type integer",
          response.at("/response/status/message").asText(), endpoint);
      assertEquals("spec.pd.replicas", response.at("/response/status/details/causes/0/field").asText());
    }
  }

  @Test
  void typeErrorsAndRuleViolationsComeInOneAnswer() throws Exception {
    ObjectNode review = (ObjectNode) JSON.readTree(RunningWebhook.fixture("create-wrong-type.json"));
    ObjectNode spec = (ObjectNode) review.at("/request/object/spec");
    ((ObjectNode) spec.get("tikv")).put("replicas", -1);
    ((ObjectNode) spec.get("tidb")).putArray("replicas").add(1);

    JsonNode response = JSON.readTree(webhook.post("/mutate", JSON.writeValueAsBytes(review)).body());

    String message = response.at("/response/status/message").asText();
    assertTrue(message.contains("spec.pd.replicas: Invalid value: \"three\": must be of type integer"), message);
    assertTrue(message.contains("spec.tidb.replicas: Invalid value: \"array\": must be of type integer"), message);
    assertTrue(message.contains("spec.tikv.replicas: Invalid value: -1"), message);
    assertEquals(3, response.at("/response/status/details/causes").size(), message);
  }

  @Test
  void malformedJsonGets400AndTheServerStaysUp() {
    HttpResponse<String> response = webhook.post("/validate", "{\"apiVersion\": ".getBytes(StandardCharsets.UTF_8));

    assertEquals(400, response.statusCode());
    assertTrue(response.body().startsWith("malformed AdmissionReview: request body is not valid JSON"), response.body());
    assertEquals(200, webhook.get("/healthz").statusCode());
  }

  @Test
  void somethingThatIsNotAnAdmissionReviewGets400() {
    assertEquals(
        "malformed AdmissionReview: kind must be AdmissionReview, got \"Pod\"\n",
        webhook.post("/validate", "{\"apiVersion\":\"v1\",\"kind\":\"Pod\"}".getBytes(StandardCharsets.UTF_8)).body());
    assertEquals(
        "malformed AdmissionReview: request body must be a JSON object (an AdmissionReview)\n",
        webhook.post("/mutate", "[]".getBytes(StandardCharsets.UTF_8)).body());
    HttpResponse<String> beta = webhook.post("/validate", RunningWebhook.fixture("create-v1beta1.json"));
    assertEquals(400, beta.statusCode());
    assertEquals(
        "malformed AdmissionReview: apiVersion must be admission.k8s.io/v1 (set admissionReviewVersions: [\"v1\"]), "
            + "got \"admission.k8s.io/v1beta1\"\n",
        beta.body());
    assertEquals(
        "malformed AdmissionReview: request.uid is missing\n",
        webhook.post("/validate", ("{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\","
            + "\"request\":{\"operation\":\"CREATE\"}}").getBytes(StandardCharsets.UTF_8)).body());
    assertEquals(
        "malformed AdmissionReview: request is missing\n",
        webhook.post("/validate", "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\"}"
            .getBytes(StandardCharsets.UTF_8)).body());
  }

  @Test
  void aBodyOverTheLimitGets413WithOrWithoutContentLength() {
    byte[] big = new byte[RunningWebhook.MAX_BODY + 1];
    java.util.Arrays.fill(big, (byte) ' ');

    HttpResponse<String> declared = webhook.post("/validate", big);
    HttpResponse<String> chunked = webhook.send(HttpRequest.newBuilder(webhook.uri("/validate"))
        .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new java.io.ByteArrayInputStream(big))).build());

    assertEquals(413, declared.statusCode());
    assertEquals("request body is larger than the limit of 65536 bytes\n", declared.body());
    assertEquals(413, chunked.statusCode());
    assertEquals(200, webhook.get("/healthz").statusCode());
  }

  @Test
  void onlyPostIsAccepted() {
    assertEquals(405, webhook.get("/validate").statusCode());
  }

  @Test
  void metricsCountRequestsPerOperationAndResult() {
    webhook.post("/validate", RunningWebhook.fixture("create-basic.json"));
    webhook.post("/validate", RunningWebhook.fixture("create-invalid.json"));
    webhook.post("/mutate", RunningWebhook.fixture("create-basic.json"));
    webhook.post("/mutate", "nope".getBytes(StandardCharsets.UTF_8));

    HttpResponse<String> metrics = webhook.get("/metrics");

    assertEquals(200, metrics.statusCode());
    String body = metrics.body();
    for (String series : List.of(
        "webhook_admission_requests_seconds_count{operation=\"validate\",result=\"allowed\"}",
        "webhook_admission_requests_seconds_count{operation=\"validate\",result=\"denied\"}",
        "webhook_admission_requests_seconds_count{operation=\"mutate\",result=\"patched\"}",
        "webhook_admission_requests_seconds_count{operation=\"mutate\",result=\"bad_request\"}",
        "webhook_admission_requests_seconds_bucket{operation=\"validate\",result=\"allowed\",le=\"0.002\"}",
        "webhook_certificate_not_after_seconds ")) {
      assertTrue(body.contains(series), series + " missing from\n" + body);
    }
  }

  @Test
  void readyAndHealthy() {
    assertEquals("ok\n", webhook.get("/healthz").body());
    assertEquals(200, webhook.get("/readyz").statusCode());
  }

  private static JsonNode admit(String path, String fixture) throws Exception {
    HttpResponse<String> response = webhook.post(path, RunningWebhook.fixture(fixture));
    assertEquals(200, response.statusCode(), response.body());
    assertEquals("application/json", response.headers().firstValue("Content-Type").orElse(""));
    return JSON.readTree(response.body());
  }
}
