package io.tidb.operator.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.node.TreeTraversingParser;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Watch events read through {@link ApiObjects} give what fabric8's own reader gives. */
class WatchObjectReaderTest {

  private static final KubernetesSerialization FABRIC8 = new KubernetesSerialization();

  private static final String POD = """
      {"kind":"Pod","apiVersion":"v1","metadata":{"name":"basic-pd-0","namespace":"ns",
      "resourceVersion":"812","labels":{"app.kubernetes.io/component":"pd"},
      "managedFields":[{"manager":"kwok","operation":"Update","apiVersion":"v1",
      "fieldsType":"FieldsV1","fieldsV1":{"f:status":{"f:phase":{}}}}]},
      "spec":{"containers":[{"name":"pd","image":"pingcap/pd:v8.5.2",
      "resources":{"requests":{"cpu":"100m","memory":"1Gi"}}}]},
      "status":{"phase":"Running","conditions":[{"type":"Ready","status":"True"}],
      "unknownField":{"kept":[1,2.5,true,null]}},"topLevelExtra":{"also":"kept"}}""";

  /** A custom resource as the API server writes one: its keys sorted. */
  private static final String TIDB_CLUSTER = """
      {"apiVersion":"pingcap.com/v1alpha1","kind":"TidbCluster","metadata":{"name":"basic",
      "namespace":"ns","generation":3},"spec":{"version":"v8.5.2","pd":{"replicas":3,
      "config":{"log":{"level":"info"}}},"tikv":{"replicas":3},"tidb":{"replicas":2}},
      "status":{"pd":{"phase":"Normal"}}}""";

  private static final List<Class<?>> PROBE_PARSERS = new CopyOnWriteArrayList<>();

  @BeforeAll
  static void registerProbe() {
    ApiObjects.serialization().registerKubernetesResource(Probe.class);
  }

  @ParameterizedTest
  @ValueSource(strings = {
      POD,
      TIDB_CLUSTER,
      // type fields after another field, or missing, or not strings: fabric8's way
      "{\"metadata\":{\"name\":\"late\"},\"kind\":\"Pod\",\"apiVersion\":\"v1\"}",
      "{\"kind\":\"Pod\",\"metadata\":{\"name\":\"no-version\"}}",
      "{\"kind\":\"Pod\",\"apiVersion\":7,\"metadata\":{\"name\":\"number\"}}",
      "{\"kind\":{\"odd\":[1]},\"apiVersion\":\"v1\",\"spec\":{}}",
      "{\"kind\":\"Pod\",\"kind\":\"Pod\",\"apiVersion\":\"v1\"}",
      // a kind nobody registered, an empty object, the two type fields alone
      "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Widget\",\"metadata\":{\"name\":\"w\"},\"spec\":{\"size\":3}}",
      "{}",
      "{\"apiVersion\":\"v1\",\"kind\":\"Pod\"}",
      "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"c\"},\"data\":{\"a\":\"b\"}}",
      "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"code\":410,\"reason\":\"Expired\"}",
      // a bookmark: the kind and the version only
      "{\"kind\":\"PersistentVolume\",\"apiVersion\":\"v1\",\"metadata\":{\"resourceVersion\":\"12746\","
          + "\"annotations\":{\"k8s.io/initial-events-end\":\"true\"}}}",
  })
  void readsWhatFabric8Reads(String object) {
    String event = "{\"type\":\"MODIFIED\",\"object\":" + object + "}";

    WatchEvent ours = ApiObjects.parse(event, WatchEvent.class);
    WatchEvent theirs = FABRIC8.unmarshal(event, WatchEvent.class);

    assertEquals(theirs.getObject().getClass(), ours.getObject().getClass());
    assertEquals(theirs, ours);
    assertEquals(FABRIC8.asJson(theirs), ApiObjects.toJson(ours));
  }

  @Test
  void readsTypedObjectsAndKeepsTheEventsOtherFields() {
    WatchEvent pod = ApiObjects.parse(
        "{\"type\":\"ADDED\",\"object\":" + POD + ",\"extra\":1}", WatchEvent.class);
    WatchEvent cluster = ApiObjects.parse(
        "{\"object\":" + TIDB_CLUSTER + ",\"type\":\"DELETED\"}", WatchEvent.class);
    WatchEvent error = ApiObjects.parse(
        "{\"type\":\"ERROR\",\"object\":{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"code\":410}}",
        WatchEvent.class);
    WatchEvent empty = ApiObjects.parse("{\"type\":\"BOOKMARK\",\"object\":null}", WatchEvent.class);

    Pod p = assertInstanceOf(Pod.class, pod.getObject());
    assertEquals("basic-pd-0", p.getMetadata().getName());
    assertEquals("100m", p.getSpec().getContainers().get(0).getResources().getRequests().get("cpu")
        .toString());
    assertEquals(Map.of("kept", Arrays.asList(1, 2.5, true, null)),
        p.getStatus().getAdditionalProperties().get("unknownField"));
    assertEquals(Map.of("also", "kept"), p.getAdditionalProperties().get("topLevelExtra"));
    assertEquals(1, pod.getAdditionalProperties().get("extra"));
    TidbCluster tc = assertInstanceOf(TidbCluster.class, cluster.getObject());
    assertEquals(3, tc.getSpec().getPd().getReplicas());
    assertEquals("DELETED", cluster.getType());
    assertEquals(410, assertInstanceOf(Status.class, error.getObject()).getCode());
    assertNull(empty.getObject());
    assertInstanceOf(GenericKubernetesResource.class, ApiObjects.parse(
        "{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"example.com/v1\",\"kind\":\"Widget\"}}",
        WatchEvent.class).getObject());
  }

  @Test
  void readsARegisteredKindFromTheStreamAndAnyOtherOrderFromATree() {
    PROBE_PARSERS.clear();
    String streamed = "{\"apiVersion\":\"probe.tidb.io/v1\",\"kind\":\"Probe\",\"spec\":1}";
    String late = "{\"spec\":1,\"apiVersion\":\"probe.tidb.io/v1\",\"kind\":\"Probe\"}";

    ApiObjects.parse("{\"type\":\"ADDED\",\"object\":" + streamed + "}", WatchEvent.class);
    ApiObjects.parse("{\"type\":\"ADDED\",\"object\":" + late + "}", WatchEvent.class);
    FABRIC8.registerKubernetesResource(Probe.class);
    FABRIC8.unmarshal("{\"type\":\"ADDED\",\"object\":" + streamed + "}", WatchEvent.class);

    assertEquals(3, PROBE_PARSERS.size());
    assertEquals(false, TreeTraversingParser.class.isAssignableFrom(PROBE_PARSERS.get(0)),
        "a kind registered and named first is read from the event's own parser");
    assertEquals(TreeTraversingParser.class, PROBE_PARSERS.get(1));
    assertEquals(TreeTraversingParser.class, PROBE_PARSERS.get(2), "fabric8 reads every object from a tree");
  }

  /** A kind whose reader notes which parser it was given. */
  @Group("probe.tidb.io")
  @Version("v1")
  @JsonDeserialize(using = ProbeReader.class)
  public static final class Probe extends CustomResource<Object, Object> implements Namespaced {}

  static final class ProbeReader extends StdDeserializer<Probe> {
    ProbeReader() {
      super(Probe.class);
    }

    @Override
    public Probe deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
      PROBE_PARSERS.add(p.getClass());
      p.skipChildren();
      return new Probe();
    }
  }
}
