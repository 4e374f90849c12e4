package io.tidb.operator.controller.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.fabric8.kubernetes.api.model.FieldsV1;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntryBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.javaoperatorsdk.operator.api.reconciler.Constants;
import io.tidb.operator.api.ApiObjects;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Cached objects keep only the operator's own apply entry of their managedFields. */
class PrunedItemStoreTest {

  private static ManagedFieldsEntry entry(String manager, String operation, String subresource) {
    return new ManagedFieldsEntryBuilder().withManager(manager).withOperation(operation)
        .withSubresource(subresource).withFieldsType("FieldsV1").build();
  }

  private static Pod pod(ManagedFieldsEntry... entries) {
    return new PodBuilder().withNewMetadata().withName("basic-pd-0").withNamespace("ns")
        .withManagedFields(List.of(entries)).endMetadata().build();
  }

  @Test
  void onlyTheOperatorsOwnApplyEntryIsKept() {
    ManagedFieldsEntry ours = entry("tidb-operator", "Apply", null);
    Pod pruned = PrunedItemStore.prune(pod(entry("kube-controller-manager", "Update", null), ours,
        entry("tidb-operator", "Apply", "status"), entry("tidb-operator", "Update", null),
        entry("kubelet", "Update", "status")));
    assertEquals(List.of(ours), pruned.getMetadata().getManagedFields());
  }

  @Test
  void anObjectWithNothingToPruneKeepsItsEntry() {
    ManagedFieldsEntry only = entry("tidb-operator", "Apply", "");
    Pod pod = pod(only);
    assertEquals(List.of(only), PrunedItemStore.prune(pod).getMetadata().getManagedFields());
    assertEquals(List.of(), PrunedItemStore.prune(pod(entry("kubelet", "Update", "status"))).getMetadata()
        .getManagedFields());
  }

  @Test
  void theStoreCompactsTheKeptEntrysFieldSet() {
    ManagedFieldsEntry ours = entry("tidb-operator", "Apply", null);
    ours.setFieldsV1(ApiObjects.parse("{\"f:spec\":{\"f:replicas\":{}}}", FieldsV1.class));
    PrunedItemStore<Pod> store = new PrunedItemStore<>();
    Pod pod = pod(entry("kube-controller-manager", "Update", null), ours);
    store.put(store.getKey(pod), pod);
    FieldsV1 kept = store.get("ns/basic-pd-0").getMetadata().getManagedFields().get(0).getFieldsV1();
    assertEquals(Map.of("f:spec", Map.of("f:replicas", Map.of())), kept.getAdditionalProperties());
    Object replicas = ((Map<?, ?>) kept.getAdditionalProperties().get("f:spec")).get("f:replicas");
    assertSame(Map.of(), replicas, "the shared empty set");
  }

  @Test
  void theStoreKeepsPrunedObjectsUnderTheInformersKey() {
    PrunedItemStore<Pod> store = new PrunedItemStore<>();
    Pod pod = pod(entry("kube-controller-manager", "Update", null));
    String key = store.getKey(pod);
    assertEquals("ns/basic-pd-0", key);
    assertNull(store.put(key, pod));
    assertEquals(List.of(), store.get(key).getMetadata().getManagedFields());
    assertEquals(1, store.size());
    assertEquals(List.of(key), store.keySet().toList());
    assertSame(pod, store.remove(key));
    assertEquals(0, store.size());
  }

  @Test
  void aStoreOnlyWhereOneInformerUsesIt() {
    assertNotNull(PrunedItemStore.forNamespaces(Constants.WATCH_ALL_NAMESPACE_SET), "all namespaces");
    assertNotNull(PrunedItemStore.forNamespaces(Set.of("team-a")), "one namespace");
    assertNull(PrunedItemStore.forNamespaces(Set.of("team-a", "team-b")),
        "two namespaces: an informer each, which must not share a store");
  }
}
