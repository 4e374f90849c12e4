package io.tidb.operator.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.DefaultKubernetesResourceList;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.tidb.operator.api.v1alpha1.backup.Backup;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ResourceStandInsTest {

  private static String cluster(String name, String rv, String pdFields) {
    return """
        {"apiVersion":"pingcap.com/v1alpha1","kind":"TidbCluster",
         "metadata":{"name":"%s","namespace":"ns","resourceVersion":"%s","uid":"u-%s"},
         "spec":{"version":"v8.5.2","pd":{"baseImage":"pingcap/pd","replicas":3%s}},
         "status":{"clusterID":"42"}}""".formatted(name, rv, name, pdFields);
  }

  private static KubernetesSerialization standIns() {
    ObjectMapper mapper = ApiObjects.mapper();
    ApiObjects.readUnreadableResourcesAsStandIns(mapper);
    return ApiObjects.newSerialization(mapper);
  }

  @Test
  void aListGoesOnPastAnObjectItCannotRead() {
    String list = """
        {"apiVersion":"pingcap.com/v1alpha1","kind":"TidbClusterList","metadata":{"resourceVersion":"9"},
         "items":[%s,%s,%s]}""".formatted(
        cluster("before", "1", ""),
        cluster("broken", "2", ",\"affinity\":\"nonsense\""),
        cluster("after", "3", ""));
    List<TidbCluster> items = standIns()
        .unmarshal(new ByteArrayInputStream(list.getBytes(StandardCharsets.UTF_8)),
            new TypeReference<DefaultKubernetesResourceList<TidbCluster>>() {})
        .getItems();

    assertEquals(List.of("before", "broken", "after"), items.stream().map(t -> t.getMetadata().getName()).toList());
    TidbCluster broken = items.get(1);
    assertNull(broken.getSpec());
    assertNull(broken.getStatus());
    assertEquals("u-broken", broken.getMetadata().getUid());
    assertEquals(Optional.of("spec.pd.affinity: Invalid value: \"nonsense\": must be of type object"),
        UnreadableResources.reason(broken));
    for (TidbCluster whole : List.of(items.get(0), items.get(2))) {
      assertEquals(3, whole.getSpec().getPd().getReplicas());
      assertEquals("42", whole.getStatus().getClusterID());
      assertEquals(Optional.empty(), UnreadableResources.reason(whole));
    }
  }

  @Test
  void aWatchEventOfAnObjectItCannotReadGivesTheStandIn() {
    String event = "{\"type\":\"MODIFIED\",\"object\":"
        + cluster("watched", "5", ",\"additionalContainers\":[{\"name\":\"x\",\"ports\":\"8080\"}]") + "}";
    TidbCluster read = (TidbCluster) standIns().unmarshal(event, WatchEvent.class).getObject();

    assertEquals("watched", read.getMetadata().getName());
    assertNull(read.getSpec());
    assertEquals(
        Optional.of("spec.pd.additionalContainers[0].ports: Invalid value: \"8080\": must be of type array"),
        UnreadableResources.reason(read));
    assertThrows(IllegalStateException.class, () -> UnreadableResources.requireReadable(read));
  }

  @Test
  void aLaterVersionThatReadsIsWholeAgain() {
    KubernetesSerialization serialization = standIns();
    TidbCluster broken = serialization.unmarshal(cluster("fixed", "7", ",\"config\":{},\"limits\":[1]"),
        TidbCluster.class);
    assertTrue(UnreadableResources.reason(broken).isPresent());

    TidbCluster fixed = serialization.unmarshal(cluster("fixed", "8", ""), TidbCluster.class);
    assertNotNull(fixed.getSpec());
    assertEquals(Optional.empty(), UnreadableResources.reason(fixed));
  }

  @Test
  void everyCustomResourceKindGetsStandIns() {
    Backup read = standIns().unmarshal("""
        {"apiVersion":"pingcap.com/v1alpha1","kind":"Backup",
         "metadata":{"name":"b","namespace":"ns","resourceVersion":"3"},
         "spec":{"br":{"cluster":"basic"},"affinity":"none"}}""", Backup.class);
    assertNull(read.getSpec());
    assertTrue(UnreadableResources.reason(read).orElseThrow().startsWith("spec.affinity: "));
  }

  /** Without the attribute (every process but the controller) such an object fails as before. */
  @Test
  void elsewhereReadingFailsAsBefore() {
    KubernetesSerialization plain = ApiObjects.newSerialization(ApiObjects.mapper());
    assertThrows(KubernetesClientException.class,
        () -> plain.unmarshal(cluster("strict", "1", ",\"affinity\":\"nonsense\""), TidbCluster.class));
  }

  /** Input that is not JSON is no object to stand in for. */
  @Test
  void brokenJsonStillFails() {
    assertThrows(KubernetesClientException.class,
        () -> standIns().unmarshal(cluster("cut", "1", ",\"affinity\":{\"x\":").substring(0, 200),
            TidbCluster.class));
  }
}
