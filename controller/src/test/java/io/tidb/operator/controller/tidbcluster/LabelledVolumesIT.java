package io.tidb.operator.controller.tidbcluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.tidb.operator.controller.tidbcluster.member.PvLabels;
import io.tidb.operator.testsupport.Await;
import io.tidb.operator.testsupport.ClusterAccess;
import io.tidb.operator.testsupport.WithLocalControlPlane;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The cache of the volumes the operator labelled, against a real API server: it holds the volumes
 * labelled for a watched namespace and follows their changes; without {@code list} and {@code
 * watch} on persistentvolumes it says it is refused and answers nothing, so every read goes to
 * the API server.
 */
@WithLocalControlPlane
class LabelledVolumesIT {

  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final String RUN = UUID.randomUUID().toString().substring(0, 8);
  private static final String WATCHED = "labelled-volumes-it-" + RUN;

  private static KubernetesClient admin;

  @BeforeAll
  static void start(ClusterAccess access) {
    admin = access.newClient();
  }

  @AfterAll
  static void stop() {
    if (admin != null) {
      admin.persistentVolumes().withLabel("labelled-volumes-it", RUN).delete();
      admin.close();
    }
  }

  private static String create(String suffix, Map<String, String> labels) {
    String name = "lv-it-" + RUN + "-" + suffix;
    admin.persistentVolumes().resource(new PersistentVolumeBuilder()
        .withNewMetadata().withName(name).addToLabels(labels)
            .addToLabels("labelled-volumes-it", RUN).endMetadata()
        .withNewSpec()
            .withCapacity(Map.of("storage", new Quantity("1Gi")))
            .withAccessModes("ReadWriteOnce")
            .withStorageClassName("labelled-volumes-it")
            .withPersistentVolumeReclaimPolicy("Retain")
            .withNewHostPath().withPath("/tmp/" + name).endHostPath()
        .endSpec()
        .build()).create();
    return name;
  }

  private static Optional<String> policy(LabelledVolumes volumes, String name) {
    return volumes.cached(name).map(pv -> pv.getSpec().getPersistentVolumeReclaimPolicy());
  }

  @Test
  void holdsTheVolumesLabelledForAWatchedNamespaceAndFollowsThem() {
    String mine = create("mine", Map.of(PvLabels.NAMESPACE, WATCHED));
    String other = create("other", Map.of(PvLabels.NAMESPACE, "someone-else-" + RUN));
    String unlabelled = create("new", Map.of());
    try (LabelledVolumes volumes = LabelledVolumes.start(admin, List.of(WATCHED))) {
      Await.until("the labelled volume in the cache", WAIT, () -> policy(volumes, mine),
          p -> p.equals(Optional.of("Retain")));
      assertEquals(Optional.empty(), volumes.cached(other), "another namespace's volume");
      assertEquals(Optional.empty(), volumes.cached(unlabelled), "a volume not labelled yet");
      assertFalse(volumes.forbidden());

      // A provisioner rewriting the reclaim policy is seen, as the operator's re-read needs.
      admin.persistentVolumes().withName(mine).edit(pv -> {
        pv.getSpec().setPersistentVolumeReclaimPolicy("Delete");
        return pv;
      });
      Await.until("the rewritten policy in the cache", WAIT, () -> policy(volumes, mine),
          p -> p.equals(Optional.of("Delete")));
      // Two managers wrote it (the create, the edit); the cache keeps none of their field sets.
      assertFalse(admin.persistentVolumes().withName(mine).get().getMetadata().getManagedFields().isEmpty());
      assertEquals(List.of(), volumes.cached(mine).orElseThrow().getMetadata().getManagedFields());

      // The operator's label brings a new volume in.
      admin.persistentVolumes().withName(unlabelled).edit(pv -> {
        pv.getMetadata().getLabels().put(PvLabels.NAMESPACE, WATCHED);
        return pv;
      });
      Await.until("the newly labelled volume in the cache", WAIT,
          () -> volumes.cached(unlabelled).map(PersistentVolume::getMetadata)
              .map(m -> m.getName()), n -> n.equals(Optional.of(unlabelled)));
    }
  }

  @Test
  void withoutListAndWatchItIsRefusedAndAnswersNothing() {
    String mine = create("refused", Map.of(PvLabels.NAMESPACE, WATCHED));
    // A ServiceAccount no role is bound to: it may not list persistentvolumes.
    String account = "system:serviceaccount:" + WATCHED + ":nobody";
    try (KubernetesClient restricted = new KubernetesClientBuilder().withConfig(
            new ConfigBuilder(admin.getConfiguration()).withImpersonateUsername(account)
                .withImpersonateGroups("system:serviceaccounts", "system:authenticated").build())
            .build();
        LabelledVolumes volumes = LabelledVolumes.start(restricted, List.of(WATCHED))) {
      Await.until("the cache refused", WAIT, volumes::forbidden, f -> f);
      assertEquals(Optional.empty(), volumes.cached(mine));
    }
  }
}
