package io.tidb.operator.controller.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntryBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.util.List;
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
  void anObjectWithNothingToPruneIsLeftAsItIs() {
    List<ManagedFieldsEntry> only = List.of(entry("tidb-operator", "Apply", ""));
    Pod pod = pod(only.get(0));
    List<ManagedFieldsEntry> before = pod.getMetadata().getManagedFields();
    assertSame(before, PrunedItemStore.prune(pod).getMetadata().getManagedFields());
    assertEquals(List.of(), PrunedItemStore.prune(pod(entry("kubelet", "Update", "status"))).getMetadata()
        .getManagedFields());
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
}
