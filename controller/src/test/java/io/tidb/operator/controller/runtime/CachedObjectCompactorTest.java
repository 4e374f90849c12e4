package io.tidb.operator.controller.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Objects entering an informer's cache keep their content in less memory. */
class CachedObjectCompactorTest {

  private static final String LONG_VALUE = "x".repeat(CachedObjectCompactor.MAX_SHARED_LENGTH + 1);

  private static final String POD = """
      {"apiVersion":"v1","kind":"Pod","metadata":{"name":"basic-pd-0","namespace":"ns",
        "labels":{"app.kubernetes.io/component":"pd","app.kubernetes.io/managed-by":"tidb-operator"},
        "annotations":{"long":"%s"}},
       "spec":{"containers":[{"name":"pd","image":"pingcap/pd:v8.5.7",
         "command":["/bin/sh","/usr/local/bin/pd_start_script.sh"],
         "env":[{"name":"NAMESPACE","valueFrom":{"fieldRef":{"fieldPath":"metadata.namespace"}}}],
         "resources":{"requests":{"storage":"1Gi"}}}],
         "aFieldOfALaterKubernetes":"on"},
       "status":{"phase":"Running","conditions":[{"type":"Ready","status":"True"}]}}
      """.formatted(LONG_VALUE);

  private static final String CLUSTER = """
      {"apiVersion":"pingcap.com/v1alpha1","kind":"TidbCluster",
       "metadata":{"name":"basic","namespace":"ns"},
       "spec":{"version":"v8.5.7",
         "pd":{"baseImage":"pingcap/pd","replicas":3,"config":{"log":{"level":"info"}}}},
       "status":{"pd":{"phase":"Normal"}}}
      """;

  /** A pod read from JSON: every string its own, as the informer reads each one. */
  private static Pod readPod() {
    return ApiObjects.parse(POD, Pod.class);
  }

  @Test
  void equalValuesOfTwoCachedObjectsAreOneString() {
    Pod first = CachedObjectCompactor.compact(readPod());
    Pod second = CachedObjectCompactor.compact(readPod());
    Container a = first.getSpec().getContainers().get(0);
    Container b = second.getSpec().getContainers().get(0);
    assertSame(a.getImage(), b.getImage(), "a field");
    assertSame(a.getCommand().get(1), b.getCommand().get(1), "a list's element");
    assertSame(first.getMetadata().getLabels().get("app.kubernetes.io/managed-by"),
        second.getMetadata().getLabels().get("app.kubernetes.io/managed-by"), "a map's value");
    assertSame(a.getEnv().get(0).getValueFrom().getFieldRef().getFieldPath(),
        b.getEnv().get(0).getValueFrom().getFieldRef().getFieldPath(), "a nested object's field");
    assertSame(a.getResources().getRequests().get("storage").getAmount(),
        b.getResources().getRequests().get("storage").getAmount(), "a quantity in a map");
    assertSame(first.getStatus().getConditions().get(0).getType(),
        second.getStatus().getConditions().get(0).getType(), "the status");
    assertSame("pingcap/pd:v8.5.7", a.getImage(), "the JVM's interned copy");
  }

  @Test
  void theContentIsUnchanged() {
    Pod compacted = CachedObjectCompactor.compact(readPod());
    assertEquals(readPod(), compacted);
    assertEquals(ApiObjects.toJson(readPod()), ApiObjects.toJson(compacted));
    TidbCluster cluster = CachedObjectCompactor.compact(ApiObjects.parse(CLUSTER, TidbCluster.class));
    assertEquals(ApiObjects.parse(CLUSTER, TidbCluster.class), cluster);
    assertEquals(ApiObjects.toJson(ApiObjects.parse(CLUSTER, TidbCluster.class)),
        ApiObjects.toJson(cluster));
  }

  @Test
  void aCustomResourcesValuesAreSharedToo() {
    TidbCluster first = CachedObjectCompactor.compact(ApiObjects.parse(CLUSTER, TidbCluster.class));
    TidbCluster second = CachedObjectCompactor.compact(ApiObjects.parse(CLUSTER, TidbCluster.class));
    assertSame(first.getSpec().getVersion(), second.getSpec().getVersion());
    assertSame(first.getSpec().getPd().getBaseImage(), second.getSpec().getPd().getBaseImage());
    assertSame(first.getMetadata().getName(), second.getMetadata().getName(),
        "the metadata, a field of fabric8's CustomResource");
  }

  @Test
  void emptyAdditionalPropertiesAreOneImmutableMapAndOthersAreKept() {
    Pod pod = CachedObjectCompactor.compact(readPod());
    Container container = pod.getSpec().getContainers().get(0);
    assertSame(Map.of(), container.getAdditionalProperties());
    assertSame(Map.of(), pod.getMetadata().getAdditionalProperties());
    assertEquals(Map.of("aFieldOfALaterKubernetes", "on"), pod.getSpec().getAdditionalProperties(),
        "a field this model does not know stays");
    assertSame("on", pod.getSpec().getAdditionalProperties().get("aFieldOfALaterKubernetes"));
  }

  @Test
  void longValuesKeepTheirOwnCopy() {
    Pod first = CachedObjectCompactor.compact(readPod());
    Pod second = CachedObjectCompactor.compact(readPod());
    String a = first.getMetadata().getAnnotations().get("long");
    assertEquals(LONG_VALUE, a);
    assertNotSame(a, second.getMetadata().getAnnotations().get("long"));
  }

  @Test
  void immutableCollectionsAreWalkedNotWritten() {
    String image = new String("pingcap/tikv:v8.5.7".toCharArray());
    Pod built = new PodBuilder().withNewMetadata().withName("basic-tikv-0").endMetadata()
        .withNewSpec().addNewContainer().withName("tikv").withImage(image).endContainer().endSpec()
        .build();
    built.getSpec().setContainers(List.of(built.getSpec().getContainers().get(0)));
    built.getMetadata()
        .setLabels(Map.of("app.kubernetes.io/component", new String("tikv".toCharArray())));
    Pod compacted = CachedObjectCompactor.compact(built);
    assertSame("pingcap/tikv:v8.5.7", compacted.getSpec().getContainers().get(0).getImage(),
        "a model object inside an immutable list is compacted");
    assertEquals(Map.of("app.kubernetes.io/component", "tikv"), compacted.getMetadata().getLabels(),
        "an immutable map keeps its own values");
  }

  @Test
  void theStoreCompactsWhatItKeeps() {
    PrunedItemStore<Pod> store = new PrunedItemStore<>();
    Pod pod = readPod();
    store.put(store.getKey(pod), pod);
    Pod cached = store.get("ns/basic-pd-0");
    assertSame("pingcap/pd:v8.5.7", cached.getSpec().getContainers().get(0).getImage());
    assertSame(Map.of(), cached.getMetadata().getAdditionalProperties());
  }
}
