package io.tidb.operator.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.DeserializationConfig;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.deser.BeanDeserializerModifier;
import com.fasterxml.jackson.databind.module.SimpleModule;
import io.fabric8.kubernetes.api.model.CSIPersistentVolumeSource;
import io.fabric8.kubernetes.api.model.HostPathVolumeSource;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Properties' deserializers built on first use give what Jackson's eager ones give, and are not
 * built for types that never occur.
 */
class LazyPropertyDeserializersTest {

  /** fabric8's serialization as it comes, every deserializer built eagerly. */
  private static final KubernetesSerialization FABRIC8 = new KubernetesSerialization();

  private static final String VOLUME = """
      {"apiVersion":"v1","kind":"PersistentVolume","metadata":{"name":"pv-1",
      "labels":{"app.kubernetes.io/namespace":"ns"}},"spec":{"capacity":{"storage":"10Gi"},
      "hostPath":{"path":"/data/pv-1","type":""},"accessModes":["ReadWriteOnce"],
      "claimRef":{"kind":"PersistentVolumeClaim","namespace":"ns","name":"pd-basic-pd-0"},
      "persistentVolumeReclaimPolicy":"Retain","nodeAffinity":null,"unknownSpecField":[1,{"a":null}]},
      "status":{"phase":"Bound"}}""";

  private static final String POD_WITH_NULLS = """
      {"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","ownerReferences":null,
      "labels":{}},"spec":{"containers":[{"name":"c","image":"i","env":[{"name":"A",
      "valueFrom":{"fieldRef":{"fieldPath":"metadata.name"}}}],"resources":null,
      "ports":[]}],"affinity":{"podAntiAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":
      [{"weight":100,"podAffinityTerm":{"topologyKey":"kubernetes.io/hostname",
      "labelSelector":{"matchLabels":{"a":"b"}}}}]}},"volumes":[{"name":"v",
      "projected":{"sources":[{"serviceAccountToken":{"path":"token","expirationSeconds":3600}}]}}]},
      "status":null}""";

  private static final String TIDB_CLUSTER = """
      {"apiVersion":"pingcap.com/v1alpha1","kind":"TidbCluster","metadata":{"name":"basic",
      "namespace":"ns"},"spec":{"version":"v8.5.2","pd":{"replicas":3,"requests":{"storage":"1Gi"},
      "config":{"log":{"level":"info"}}},"tikv":{"replicas":3,"storageVolumes":[{"name":"wal",
      "storageSize":"2Gi","mountPath":"/wal"}]},"tidb":{"replicas":2,"service":{"type":"NodePort"}}},
      "status":{"pd":{"phase":"Normal","members":{"basic-pd-0":{"name":"basic-pd-0","health":true}}}}}""";

  static Stream<Arguments> objects() {
    return Stream.of(
        Arguments.of(VOLUME, PersistentVolume.class),
        Arguments.of(POD_WITH_NULLS, Pod.class),
        Arguments.of(TIDB_CLUSTER, TidbCluster.class));
  }

  @ParameterizedTest
  @MethodSource("objects")
  void readsWhatFabric8Reads(String json, Class<?> type) {
    Object lazy = ApiObjects.parse(json, type);
    assertEquals(FABRIC8.unmarshal(json, type), lazy);
    assertEquals(FABRIC8.asJson(FABRIC8.unmarshal(json, type)), ApiObjects.toJson(lazy));
  }

  @Test
  void nullsAndEmptiesStayAsFabric8ReadsThem() {
    Pod pod = ApiObjects.parse(POD_WITH_NULLS, Pod.class);
    assertNull(pod.getStatus());
    assertNull(pod.getSpec().getContainers().get(0).getResources());
    assertEquals(List.of(), pod.getSpec().getContainers().get(0).getPorts());
    assertTrue(pod.getMetadata().getLabels().isEmpty());
  }

  /** Real watch events (a Pod's and a StatefulSet's, as the local API server sent them). */
  @Test
  void watchEventsReadAsFabric8ReadsThem() throws IOException {
    int read = 0;
    try (InputStream in = getClass().getResourceAsStream("/watch-events/pod-and-statefulset.jsonl");
        BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      for (String line = lines.readLine(); line != null; line = lines.readLine()) {
        if (line.isBlank()) {
          continue;
        }
        WatchEvent ours = ApiObjects.parse(line, WatchEvent.class);
        WatchEvent theirs = FABRIC8.unmarshal(line, WatchEvent.class);
        assertTrue(ours.getObject() instanceof Pod || ours.getObject() instanceof StatefulSet);
        assertEquals(theirs.getObject(), ours.getObject());
        read++;
      }
    }
    assertTrue(read >= 2, "events read: " + read);
  }

  @Test
  void buildsOnlyTheReadersOfTypesThatOccur() {
    Set<Class<?>> eager = builtReaders(false);
    Set<Class<?>> lazy = builtReaders(true);
    assertTrue(eager.contains(CSIPersistentVolumeSource.class), "eager builds: " + eager.size());
    assertFalse(lazy.contains(CSIPersistentVolumeSource.class), "lazy builds: " + lazy);
    assertTrue(lazy.contains(HostPathVolumeSource.class), "lazy builds: " + lazy);
    assertTrue(lazy.size() * 2 < eager.size(), lazy.size() + " against " + eager.size());
  }

  /** The classes whose bean deserializers a fresh mapper builds to read {@link #VOLUME}. */
  private static Set<Class<?>> builtReaders(boolean lazy) {
    Set<Class<?>> built = ConcurrentHashMap.newKeySet();
    SimpleModule recorder = new SimpleModule("recorder").setDeserializerModifier(
        new BeanDeserializerModifier() {
          @Override
          public JsonDeserializer<?> modifyDeserializer(
              DeserializationConfig config, BeanDescription description, JsonDeserializer<?> deserializer) {
            built.add(description.getBeanClass());
            return deserializer;
          }
        });
    ObjectMapper mapper = new ObjectMapper().registerModule(recorder);
    if (lazy) {
      mapper.registerModule(new SimpleModule("lazy").setDeserializerModifier(new LazyPropertyDeserializers()));
    }
    PersistentVolume volume = new KubernetesSerialization(mapper, false).unmarshal(VOLUME, PersistentVolume.class);
    assertEquals("/data/pv-1", volume.getSpec().getHostPath().getPath());
    return built;
  }
}
