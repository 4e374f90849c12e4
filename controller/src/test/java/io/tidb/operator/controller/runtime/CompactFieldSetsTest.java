package io.tidb.operator.controller.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.fabric8.kubernetes.api.model.FieldsV1;
import io.tidb.operator.api.ApiObjects;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A field set compacted holds the same content, its empty sets shared and its keys interned. */
class CompactFieldSetsTest {

  /** Part of the operator's own apply entry of a PD StatefulSet, as the API server writes it. */
  private static final String STATEFUL_SET = """
      {"f:metadata":{"f:labels":{"f:app.kubernetes.io/component":{},"f:app.kubernetes.io/instance":{}},
       "f:ownerReferences":{"k:{\\"uid\\":\\"0c9b\\"}":{}}},
       "f:spec":{"f:replicas":{},"f:template":{"f:spec":{"f:containers":{"k:{\\"name\\":\\"pd\\"}":{
       ".":{},"f:image":{},"f:name":{},"f:ports":{"k:{\\"containerPort\\":2379,\\"protocol\\":\\"TCP\\"}":{
       ".":{},"f:containerPort":{},"f:name":{}}}}}}}}}
      """;

  private static FieldsV1 read() {
    return ApiObjects.parse(STATEFUL_SET, FieldsV1.class);
  }

  @Test
  void theContentAndItsOrderAreKept() {
    FieldsV1 original = read();
    FieldsV1 compacted = CompactFieldSets.compact(original);
    assertEquals(original.getAdditionalProperties(), compacted.getAdditionalProperties());
    assertEquals(ApiObjects.toJson(original), ApiObjects.toJson(compacted));
    assertEquals(List.of("f:metadata", "f:spec"), List.copyOf(compacted.getAdditionalProperties().keySet()));
  }

  @Test
  void emptySetsAreOneImmutableMapAndKeysAreShared() {
    Map<String, Object> a = CompactFieldSets.compact(read()).getAdditionalProperties();
    Map<String, Object> b = CompactFieldSets.compact(read()).getAdditionalProperties();
    Map<String, Object> replicasA = child(a, "f:spec", "f:replicas");
    assertSame(replicasA, child(b, "f:spec", "f:replicas"));
    assertSame(replicasA, child(a, "f:metadata", "f:labels", "f:app.kubernetes.io/component"));
    assertThrows(UnsupportedOperationException.class, () -> replicasA.put("f:minReadySeconds", Map.of()));
    String keyA = key(child(a, "f:spec", "f:template", "f:spec", "f:containers"));
    String keyB = key(child(b, "f:spec", "f:template", "f:spec", "f:containers"));
    assertEquals("k:{\"name\":\"pd\"}", keyA);
    assertSame(keyA, keyB);
  }

  @Test
  void noFieldSetStaysNone() {
    assertNull(CompactFieldSets.compact(null));
    assertEquals(Map.of(), CompactFieldSets.compact(new FieldsV1()).getAdditionalProperties());
  }

  /** The set at {@code path} below {@code set}: every value of a field set is a set. */
  @SuppressWarnings("unchecked")
  private static Map<String, Object> child(Map<String, Object> set, String... path) {
    Map<String, Object> at = set;
    for (String key : path) {
      at = (Map<String, Object>) at.get(key);
    }
    return at;
  }

  private static String key(Map<String, Object> set) {
    return set.keySet().iterator().next();
  }
}
