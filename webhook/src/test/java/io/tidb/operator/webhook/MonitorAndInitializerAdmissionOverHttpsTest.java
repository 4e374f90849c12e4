package io.tidb.operator.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.zjsonpatch.JsonPatch;
import io.tidb.operator.api.validation.initializer.TidbInitializerAdmissionRules;
import io.tidb.operator.api.validation.monitor.TidbMonitorAdmissionRules;
import java.net.http.HttpResponse;
import java.util.Base64;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * TidbMonitor and TidbInitializer AdmissionReviews over real HTTPS, with the rules the controllers
 * run: upstream's manifests allowed (the monitor patched with its defaults), broken ones denied
 * with every violation at once.
 */
class MonitorAndInitializerAdmissionOverHttpsTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  private static final String MONITOR = """
      apiVersion: pingcap.com/v1alpha1
      kind: TidbMonitor
      metadata: {name: basic, namespace: demo}
      spec:
        clusters: [{name: basic}]
        prometheus: {baseImage: prom/prometheus, version: v2.27.1}
        grafana: {baseImage: grafana/grafana, version: 7.5.11}
        initializer: {baseImage: pingcap/tidb-monitor-initializer, version: v8.5.7}
        reloader: {baseImage: pingcap/tidb-monitor-reloader, version: v1.0.1}
        imagePullPolicy: IfNotPresent
      """;
  private static final String BROKEN_MONITOR = """
      apiVersion: pingcap.com/v1alpha1
      kind: TidbMonitor
      metadata: {name: broken, namespace: demo}
      spec:
        shards: 0
        persistent: true
        prometheus: {baseImage: prom/prometheus, version: v2.27.1}
        initializer: {baseImage: pingcap/tidb-monitor-initializer, version: v8.5.7}
      """;
  private static final String INITIALIZER = """
      apiVersion: pingcap.com/v1alpha1
      kind: TidbInitializer
      metadata: {name: initialize-demo, namespace: demo}
      spec:
        image: tnir/mysqlclient
        imagePullPolicy: IfNotPresent
        cluster: {name: initialize-demo}
        initSqlConfigMap: tidb-initsql
        passwordSecret: tidb-secret
        timezone: Asia/Shanghai
      """;
  private static final String BROKEN_INITIALIZER = """
      apiVersion: pingcap.com/v1alpha1
      kind: TidbInitializer
      metadata: {name: broken, namespace: demo}
      spec:
        cluster: {name: demo, namespace: other}
        timezone: Mars/Olympus
      """;
  private static RunningWebhook webhook;

  @BeforeAll
  static void start() {
    webhook = new RunningWebhook(new TidbMonitorAdmissionRules(), new TidbInitializerAdmissionRules());
  }

  @AfterAll
  static void stop() {
    webhook.close();
  }

  @Test
  void anUpstreamMonitorIsAllowedAndPatchedWithItsDefaults() throws Exception {
    JsonNode request = review("CREATE", "TidbMonitor", "tidbmonitors", MONITOR);
    assertTrue(send("/validate", request).at("/response/allowed").asBoolean());
    JsonNode response = send("/mutate", request);
    assertTrue(response.at("/response/allowed").asBoolean());
    JsonNode patch = JSON.readTree(Base64.getDecoder().decode(response.at("/response/patch").asText()));
    JsonNode patched = JsonPatch.apply(patch, request.at("/request/object"));
    assertEquals("demo", patched.at("/spec/clusters/0/namespace").asText());
    assertEquals("Retain", patched.at("/spec/pvReclaimPolicy").asText());
  }

  @Test
  void aBrokenMonitorIsDeniedWithEveryViolation() throws Exception {
    JsonNode response = send("/validate", review("CREATE", "TidbMonitor", "tidbmonitors", BROKEN_MONITOR));
    assertFalse(response.at("/response/allowed").asBoolean());
    assertEquals(422, response.at("/response/status/code").asInt());
    String message = response.at("/response/status/message").asText();
    assertTrue(message.startsWith("TidbMonitor \"broken\" is invalid: "), message);
    for (String field : new String[] {"spec.clusters:", "spec.reloader:", "spec.shards:", "spec.storage:"}) {
      assertTrue(message.contains(field), field + " in " + message);
    }
    assertEquals(4, response.at("/response/status/details/causes").size(), message);
  }

  @Test
  void theUpstreamInitializerIsAllowedAndABrokenOneDeniedWithEveryViolation() throws Exception {
    assertTrue(send("/validate", review("CREATE", "TidbInitializer", "tidbinitializers", INITIALIZER))
        .at("/response/allowed").asBoolean());
    JsonNode response = send("/validate", review("CREATE", "TidbInitializer", "tidbinitializers", BROKEN_INITIALIZER));
    assertFalse(response.at("/response/allowed").asBoolean());
    String message = response.at("/response/status/message").asText();
    for (String field : new String[] {"spec.image:", "spec.cluster.namespace:", "spec.timezone:"}) {
      assertTrue(message.contains(field), field + " in " + message);
    }
    assertEquals(3, response.at("/response/status/details/causes").size(), message);
  }

  private static JsonNode review(String operation, String kindName, String plural, String objectYaml) throws Exception {
    ObjectNode gvk = JSON.createObjectNode().put("group", "pingcap.com").put("version", "v1alpha1");
    ObjectNode kind = gvk.deepCopy().put("kind", kindName);
    ObjectNode resource = gvk.deepCopy().put("resource", plural);
    ObjectNode req = JSON.createObjectNode().put("uid", "6c1f3a2e-0001-4d1e-9a70-0000000000e1");
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
    ObjectNode review = JSON.createObjectNode().put("apiVersion", "admission.k8s.io/v1").put("kind", "AdmissionReview");
    review.set("request", req);
    return review;
  }

  private static JsonNode send(String path, JsonNode review) throws Exception {
    HttpResponse<String> response = webhook.post(path, JSON.writeValueAsBytes(review));
    assertEquals(200, response.statusCode(), response.body());
    return JSON.readTree(response.body());
  }
}
