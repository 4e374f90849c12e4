package io.tidb.operator.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodList;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class ManagedFieldsReaderTest {

  private static final String OURS = "tidb-operator";

  /** Four entries as the API server writes them (manager and operation first), and ours last. */
  private static final String POD = """
      {"apiVersion":"v1","kind":"Pod","metadata":{"name":"basic-pd-0","namespace":"ns","managedFields":[
        {"manager":"kube-controller-manager","operation":"Update","apiVersion":"v1","time":"2026-12-06T10:00:00Z",
         "fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:labels":{".":{},"f:app":{}}},"f:spec":{"f:containers":{}}}},
        {"manager":"tidb-operator","operation":"Apply","apiVersion":"v1","time":"2026-12-06T10:00:01Z",
         "fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:labels":{"f:tidb.pingcap.com/member":{}}}},
         "subresource":"status"},
        {"manager":"tidb-operator","operation":"Update","apiVersion":"v1","time":"2026-12-06T10:00:02Z",
         "fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:annotations":{}}}},
        {"manager":"tidb-operator","operation":"Apply","apiVersion":"v1","time":"2026-12-06T10:00:03Z",
         "fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:labels":{"f:tidb.pingcap.com/store-id":{}}}},
         "futureField":{"a":1}}
      ]},"spec":{"containers":[{"name":"pd","image":"pingcap/pd:v8.5.0"}]}}
      """;

  @Test
  void withoutTheAttributeEveryEntryIsReadAsFabric8ReadsIt() {
    Pod ours = serialization(mapper()).unmarshal(POD, Pod.class);
    Pod fabric8s = new KubernetesSerialization().unmarshal(POD, Pod.class);

    assertEquals(4, ours.getMetadata().getManagedFields().size());
    assertEquals(fabric8s, ours);
  }

  @Test
  void withItOnlyTheNamedManagersOwnApplyEntryIsKeptWhole() {
    Pod full = serialization(mapper()).unmarshal(POD, Pod.class);
    Pod pod = serialization(keeping(OURS)).unmarshal(POD, Pod.class);

    List<ManagedFieldsEntry> entries = pod.getMetadata().getManagedFields();
    assertEquals(List.of(full.getMetadata().getManagedFields().get(3)), entries);
    assertEquals("{\"a\":1}", ApiObjects.toJson(entries.get(0).getAdditionalProperties().get("futureField")));
    full.getMetadata().setManagedFields(entries);
    assertEquals(full, pod, "nothing else changes");
  }

  @Test
  void anEntryWrittenInAnotherOrderIsJudgedWhole() {
    String pod = """
        {"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","managedFields":[
          {"fieldsV1":{"f:spec":{}},"fieldsType":"FieldsV1","operation":"Apply","manager":"tidb-operator"},
          {"fieldsV1":{"f:status":{}},"manager":"kubelet","operation":"Apply"},
          {"fieldsV1":{"f:metadata":{}},"operation":"Apply","manager":"tidb-operator","subresource":"status"}
        ]}}
        """;

    List<ManagedFieldsEntry> entries =
        serialization(keeping(OURS)).unmarshal(pod, Pod.class).getMetadata().getManagedFields();

    assertEquals(1, entries.size());
    assertEquals("{\"f:spec\":{}}", ApiObjects.toJson(entries.get(0).getFieldsV1()));
  }

  @Test
  void listsAndWatchEventsAreReadTheSameWay() throws IOException {
    KubernetesSerialization keeping = serialization(keeping(OURS));
    PodList list = keeping.unmarshal("{\"apiVersion\":\"v1\",\"kind\":\"PodList\",\"items\":[" + POD.strip() + "]}",
        PodList.class);
    assertEquals(1, list.getItems().get(0).getMetadata().getManagedFields().size());

    // As the local API server sent them: no entry of ours, three of others.
    for (String line : watchEvents()) {
      WatchEvent full = serialization(mapper()).unmarshal(line, WatchEvent.class);
      WatchEvent event = keeping.unmarshal(line, WatchEvent.class);
      HasMetadata fullObject = (HasMetadata) full.getObject();
      HasMetadata object = (HasMetadata) event.getObject();
      assertTrue(fullObject.getMetadata().getManagedFields().size() >= 2);
      assertEquals(List.of(), object.getMetadata().getManagedFields());
      fullObject.getMetadata().setManagedFields(List.of());
      assertEquals(fullObject, object);
    }
  }

  @Test
  void nullAndMalformedManagedFields() {
    KubernetesSerialization keeping = serialization(keeping(OURS));
    assertNull(keeping.unmarshal("{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"metadata\":{\"managedFields\":null}}",
        Pod.class).getMetadata().getManagedFields());
    KubernetesClientException error = assertThrows(KubernetesClientException.class, () -> keeping.unmarshal(
        "{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"metadata\":{\"managedFields\":[{\"manager\":{\"x\":1}}]}}",
        Pod.class));
    String cause = String.valueOf(error.getCause());
    assertTrue(cause.contains("managedFields entry: \"manager\" must be a string"), cause);
  }

  private static ObjectMapper keeping(String manager) {
    ObjectMapper mapper = mapper();
    ApiObjects.keepOnlyManagedFieldsOf(mapper, manager);
    return mapper;
  }

  private static ObjectMapper mapper() {
    return ApiObjects.mapper();
  }

  private static KubernetesSerialization serialization(ObjectMapper mapper) {
    return ApiObjects.newSerialization(mapper);
  }

  private static List<String> watchEvents() throws IOException {
    try (InputStream in = ManagedFieldsReaderTest.class.getResourceAsStream("/watch-events/pod-and-statefulset.jsonl")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().filter(l -> !l.isBlank()).toList();
    }
  }
}
