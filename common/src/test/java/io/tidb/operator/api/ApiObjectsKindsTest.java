package io.tidb.operator.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.api.model.storage.StorageClass;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import org.junit.jupiter.api.Test;

/** Kinds found by name without fabric8's search of its model jars, and every other kind still found. */
class ApiObjectsKindsTest {

  @Test
  void watchedKindsAreRegisteredWithoutSearching() {
    KubernetesSerialization fresh = ApiObjects.newSerialization();
    for (Class<? extends KubernetesResource> kind : ApiObjects.WATCHED_KINDS) {
      @SuppressWarnings("unchecked")
      Class<? extends HasMetadata> type = (Class<? extends HasMetadata>) kind;
      assertEquals(kind, fresh.getRegisteredKubernetesResource(HasMetadata.getApiVersion(type), HasMetadata.getKind(type)));
    }
    // nothing was searched: a kind outside the list is unknown to a fresh serialization
    assertNull(fresh.getRegisteredKubernetesResource("storage.k8s.io/v1", "StorageClass"));
  }

  @Test
  void anyOtherKindOfTheModelIsFoundWhenFirstMet() {
    assertEquals(Pod.class, ApiObjects.kubernetesResource("v1", "Pod"));
    assertEquals(TidbCluster.class, ApiObjects.kubernetesResource("pingcap.com/v1alpha1", "TidbCluster"));
    assertEquals(StorageClass.class, ApiObjects.kubernetesResource("storage.k8s.io/v1", "StorageClass"));
    assertNull(ApiObjects.kubernetesResource("example.com/v1", "Unknown"));
  }

  @Test
  void watchEventsOfUnlistedKindsAreReadAsTheirClass() {
    WatchEvent event = ApiObjects.parse("""
        {"type":"ADDED","object":{"apiVersion":"storage.k8s.io/v1","kind":"StorageClass",
        "metadata":{"name":"local"},"provisioner":"rancher.io/local-path"}}""", WatchEvent.class);
    StorageClass storageClass = assertInstanceOf(StorageClass.class, event.getObject());
    assertEquals("rancher.io/local-path", storageClass.getProvisioner());
    WatchEvent unknown = ApiObjects.parse("""
        {"type":"ADDED","object":{"apiVersion":"example.com/v1","kind":"Unknown",
        "metadata":{"name":"u"},"spec":{"a":1}}}""", WatchEvent.class);
    assertInstanceOf(GenericKubernetesResource.class, unknown.getObject());
  }
}
