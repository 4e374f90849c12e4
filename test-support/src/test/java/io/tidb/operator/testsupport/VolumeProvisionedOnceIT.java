package io.tidb.operator.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The local control plane's provisioner (hack/kwok/pvc-provision.yaml) creates each claim's
 * volume once, as a real provisioner does: a reclaim policy set on a bound volume, as the operator
 * sets {@code Retain}, stays. kwok's own stage ran a second time for later events of a new claim
 * (its own annotation patch, kube-controller-manager's updates) and applied the volume again with
 * {@code Delete}: 45 and 46 of these 60 volumes in two runs, which the controller benchmark counted
 * as the operator's repair writes.
 */
@WithLocalControlPlane
class VolumeProvisionedOnceIT {

  private static final int CLAIMS = 60;

  @Test
  void aReclaimPolicySetOnANewlyBoundVolumeStays(KubernetesClient client) throws Exception {
    String namespace = TestNamespaces.createUnique(client, "pv-once");
    for (int i = 0; i < CLAIMS; i++) {
      client.resource(new PersistentVolumeClaimBuilder()
          .withNewMetadata().withNamespace(namespace).withName("c" + i).endMetadata()
          .withNewSpec()
          .withAccessModes("ReadWriteOnce")
          .withStorageClassName("kwok-volume")
          .withNewResources().addToRequests("storage", new Quantity("1Gi")).endResources()
          .endSpec()
          .build()).create();
    }

    // Each volume as soon as its claim is Bound, as the operator patches it.
    Set<String> patched = new HashSet<>();
    Await.until(CLAIMS + " claims in " + namespace + " Bound and their volumes patched to Retain",
        Duration.ofMinutes(2),
        () -> {
          for (PersistentVolumeClaim pvc :
              client.persistentVolumeClaims().inNamespace(namespace).list().getItems()) {
            String volume = pvc.getSpec().getVolumeName();
            if ("Bound".equals(pvc.getStatus().getPhase()) && !patched.contains(volume)) {
              client.persistentVolumes().withName(volume).patch(
                  PatchContext.of(PatchType.JSON_MERGE),
                  "{\"spec\":{\"persistentVolumeReclaimPolicy\":\"Retain\"}}");
              patched.add(volume); // only once the patch went through: a failed one is tried again
            }
          }
          return patched.size();
        },
        n -> n == CLAIMS);

    // kwok's second runs came within seconds of binding; give them ten.
    Thread.sleep(10_000);
    List<PersistentVolume> volumes = client.persistentVolumes().list().getItems().stream()
        .filter(pv -> pv.getSpec().getClaimRef() != null
            && namespace.equals(pv.getSpec().getClaimRef().getNamespace()))
        .toList();
    Map<String, Long> policies = volumes.stream().collect(Collectors.groupingBy(
        pv -> pv.getSpec().getPersistentVolumeReclaimPolicy(), TreeMap::new, Collectors.counting()));
    assertEquals(Map.of("Retain", (long) CLAIMS), policies, "reclaim policies of the volumes");

    client.namespaces().withName(namespace).delete();
    for (String volume : patched) {
      client.persistentVolumes().withName(volume).delete();
    }
  }
}
