package io.tidb.operator.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A StatefulSet with a volume claim template reaches ready replicas on kwok's fake nodes: the
 * StatefulSet controller creates the pods and PVCs, kwok's volume stages provision and bind PVs, the
 * scheduler places the pods, and kwok marks them Running and Ready.
 */
@WithLocalControlPlane
class StatefulSetOnKwokIT {

  private static final int REPLICAS = 3;
  private static final Map<String, String> LABELS = Map.of("app", "web");

  @Test
  void statefulSetWithVolumeClaimTemplateBecomesReadyWithBoundClaims(KubernetesClient client) throws Exception {
    String namespace = TestNamespaces.createUnique(client, "sts-kwok");
    client.resource(new ServiceBuilder()
        .withNewMetadata().withNamespace(namespace).withName("web").endMetadata()
        .withNewSpec().withClusterIP("None").withSelector(LABELS).addNewPort().withPort(80).endPort().endSpec()
        .build()).create();
    client.resource(statefulSet(namespace)).create();

    StatefulSet ready = Await.until("StatefulSet " + namespace + "/web to have " + REPLICAS + " ready replicas",
        Duration.ofMinutes(3),
        () -> client.apps().statefulSets().inNamespace(namespace).withName("web").get(),
        sts -> sts.getStatus() != null && Integer.valueOf(REPLICAS).equals(sts.getStatus().getReadyReplicas()));
    assertEquals(REPLICAS, ready.getStatus().getReadyReplicas());

    List<Pod> pods = client.pods().inNamespace(namespace).withLabels(LABELS).list().getItems();
    assertEquals(REPLICAS, pods.size());
    for (Pod pod : pods) {
      String name = pod.getMetadata().getName();
      assertEquals("Running", pod.getStatus().getPhase(), name);
      assertTrue(pod.getSpec().getNodeName().startsWith("kwok-node-"), name + " on " + pod.getSpec().getNodeName());
      // Pod IPs come from kwok's loopback CIDR: nothing can reach beyond this machine through them.
      assertTrue(InetAddress.getByName(pod.getStatus().getPodIP()).isLoopbackAddress(), pod.getStatus().getPodIP());
      // The ServiceAccount admission plugin is on: the default ServiceAccount's token is mounted.
      assertEquals("default", pod.getSpec().getServiceAccountName());
      assertTrue(pod.getSpec().getVolumes().stream().anyMatch(v -> v.getName().startsWith("kube-api-access-")),
          name + " volumes " + pod.getSpec().getVolumes());
    }

    for (int i = 0; i < REPLICAS; i++) {
      String claim = "data-web-" + i;
      PersistentVolumeClaim pvc = Await.until("PVC " + namespace + "/" + claim + " Bound", Duration.ofSeconds(30),
          () -> client.persistentVolumeClaims().inNamespace(namespace).withName(claim).get(),
          c -> c != null && "Bound".equals(c.getStatus().getPhase()));
      assertEquals("kwok-volume", pvc.getSpec().getStorageClassName());
      assertEquals("Bound", client.persistentVolumes().withName(pvc.getSpec().getVolumeName()).get()
          .getStatus().getPhase());
    }

    client.namespaces().withName(namespace).delete();
  }

  private static StatefulSet statefulSet(String namespace) {
    return new StatefulSetBuilder()
        .withNewMetadata().withNamespace(namespace).withName("web").endMetadata()
        .withNewSpec()
        .withReplicas(REPLICAS)
        .withServiceName("web")
        .withNewSelector().withMatchLabels(LABELS).endSelector()
        .withNewTemplate()
        .withNewMetadata().withLabels(LABELS).endMetadata()
        .withNewSpec()
        .addNewContainer()
        .withName("web").withImage("registry.invalid/web:1")
        .addNewVolumeMount().withName("data").withMountPath("/data").endVolumeMount()
        .endContainer()
        .endSpec()
        .endTemplate()
        .addNewVolumeClaimTemplate()
        .withNewMetadata().withName("data").endMetadata()
        .withNewSpec()
        .withAccessModes("ReadWriteOnce")
        .withNewResources().addToRequests("storage", new Quantity("1Gi")).endResources()
        .endSpec()
        .endVolumeClaimTemplate()
        .endSpec()
        .build();
  }
}
