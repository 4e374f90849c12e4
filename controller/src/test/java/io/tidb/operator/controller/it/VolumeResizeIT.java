package io.tidb.operator.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.storage.StorageClassBuilder;
import io.tidb.operator.api.v1alpha1.cluster.StorageVolumeStatus;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.testsupport.Await;
import io.tidb.operator.testsupport.ClusterAccess;
import io.tidb.operator.testsupport.WithLocalControlPlane;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Volume resize on the full local control plane. TiKV's claims use a StorageClass of this test
 * that allows expansion; there is no provisioner for it, so the test creates the PersistentVolumes
 * (pre-bound to the claims' names) and plays the external resizer: it grows a claim's capacity
 * only when it chooses to, which shows the operator resizes one pod at a time. PD keeps kwok's
 * default StorageClass, which does not allow expansion.
 */
@WithLocalControlPlane
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class VolumeResizeIT {

  private static final int TIKV = 3;
  private static ControllerHarness h;
  private static String expandable;

  @BeforeAll
  static void start(ClusterAccess access) {
    h = ControllerHarness.start(access, "volume-resize-it", Duration.ofSeconds(10));
    expandable = h.namespace + "-expandable";
    h.admin.resource(new StorageClassBuilder()
        .withNewMetadata().withName(expandable).endMetadata()
        .withProvisioner("example.com/no-provisioner")
        .withAllowVolumeExpansion(true)
        .withVolumeBindingMode("Immediate")
        .withReclaimPolicy("Delete")
        .build()).create();
    for (int i = 0; i < TIKV; i++) {
      h.admin.resource(new PersistentVolumeBuilder()
          .withNewMetadata().withName(pv(i)).endMetadata()
          .withNewSpec()
          .withAccessModes("ReadWriteOnce")
          .addToCapacity("storage", new Quantity("1Gi"))
          .withStorageClassName(expandable)
          .withPersistentVolumeReclaimPolicy("Delete")
          .withNewHostPath().withPath("/tmp/" + pv(i)).endHostPath()
          .withNewClaimRef().withNamespace(h.namespace).withName(claim(i)).endClaimRef()
          .endSpec()
          .build()).create();
    }
    TidbCluster tc = Fixtures.small("basic", "InPlace");
    tc.getSpec().getTikv().setReplicas(TIKV);
    tc.getSpec().getTikv().setStorageClassName(expandable);
    h.create(tc);
    h.awaitReady("basic");
  }

  @AfterAll
  static void stop() {
    if (h == null) {
      return;
    }
    // With pvReclaimPolicy Retain the volumes would outlive the namespace: remove this test's
    // (they go once their claims are gone), and its StorageClass.
    for (PersistentVolume v : h.admin.persistentVolumes().list().getItems()) {
      if (v.getSpec().getClaimRef() != null && h.namespace.equals(v.getSpec().getClaimRef().getNamespace())) {
        h.admin.resource(v).delete();
      }
    }
    h.admin.storage().v1().storageClasses().withName(expandable).delete();
    h.close();
  }

  private static String pv(int i) {
    return h.namespace + "-tikv-" + i;
  }

  private static String claim(int i) {
    return "tikv-basic-tikv-" + i;
  }

  private static PersistentVolumeClaim pvc(String name) {
    return h.admin.persistentVolumeClaims().inNamespace(h.namespace).withName(name).get();
  }

  private static String request(String name) {
    return pvc(name).getSpec().getResources().getRequests().get("storage").toString();
  }

  /** The external resizer's part: the volume and the claim's capacity grow to the request. */
  private static void grow(int i, String size) {
    h.admin.persistentVolumes().withName(pv(i))
        .edit(p -> {
          p.getSpec().getCapacity().put("storage", new Quantity(size));
          return p;
        });
    h.admin.persistentVolumeClaims().inNamespace(h.namespace).withName(claim(i))
        .editStatus(c -> {
          c.getStatus().getCapacity().put("storage", new Quantity(size));
          return c;
        });
  }

  private static Optional<Condition> condition(List<Condition> conditions) {
    return conditions == null
        ? Optional.empty()
        : conditions.stream().filter(c -> "VolumeResize".equals(c.getType())).findFirst();
  }

  @Test
  @Order(1)
  void boundVolumesGetTheClusterReclaimPolicyAndClaimsTheirIds() {
    for (int i = 0; i < TIKV; i++) {
      int n = i;
      PersistentVolume retained = Await.until(pv(i) + " reclaim policy Retain",
          ControllerHarness.CONVERGE,
          () -> h.admin.persistentVolumes().withName(pv(n)).get(),
          p -> "Retain".equals(p.getSpec().getPersistentVolumeReclaimPolicy()));
      assertTrue(retained.getMetadata().getManagedFields().stream()
              .anyMatch(f -> "tidb-operator".equals(f.getManager()) && "Update".equals(f.getOperation())
                  && f.getFieldsV1().getAdditionalProperties().toString()
                      .contains("f:persistentVolumeReclaimPolicy")),
          "the operator's patch of the reclaim policy is recorded under its field manager");
      Await.until(claim(i) + " labelled with its store id", ControllerHarness.CONVERGE,
          () -> pvc(claim(n)),
          c -> c.getMetadata().getLabels().containsKey("tidb.pingcap.com/store-id"));
    }
    TidbCluster tc = h.get("basic");
    String storeOf0 = tc.getStatus().getTikv().getStores().values().stream()
        .filter(s -> "basic-tikv-0".equals(s.getPodName())).findFirst().orElseThrow().getId();
    assertEquals(storeOf0, pvc(claim(0)).getMetadata().getLabels().get("tidb.pingcap.com/store-id"));
    PersistentVolumeClaim pd = Await.until("pd-basic-pd-0 labelled with its member id",
        ControllerHarness.CONVERGE, () -> pvc("pd-basic-pd-0"),
        c -> c.getMetadata().getLabels().containsKey("tidb.pingcap.com/member-id"));
    assertEquals(tc.getStatus().getPd().getMembers().get("basic-pd-0").getId(),
        pd.getMetadata().getLabels().get("tidb.pingcap.com/member-id"));
    // The volume is patched in the reconcile that labels its claim, right after the label.
    Await.until("kwok's provisioned volume too: reclaim policy Retain", ControllerHarness.CONVERGE,
        () -> h.admin.persistentVolumes().withName(pd.getSpec().getVolumeName()).get(),
        p -> "Retain".equals(p.getSpec().getPersistentVolumeReclaimPolicy()));
    StorageVolumeStatus volumes = h.get("basic").getStatus().getTikv().getVolumes().get("tikv");
    assertEquals(List.of(3, 3, 3), List.of(volumes.getBoundCount(), volumes.getCurrentCount(),
        volumes.getResizedCount()));
  }

  @Test
  @Order(2)
  void tikvClaimsAreResizedOnePodAtATime() throws InterruptedException {
    h.edit("basic", tc -> {
      tc.getSpec().getTikv().getRequests().put("storage", new Quantity("2Gi"));
      return tc;
    });
    for (int i = 0; i < TIKV; i++) {
      int n = i;
      Await.until(claim(i) + " asks for 2Gi", ControllerHarness.CONVERGE, () -> request(claim(n)),
          "2Gi"::equals);
      TidbCluster tc = h.await("basic", "VolumeResize=True while " + claim(i) + " grows", t ->
          condition(t.getStatus().getTikv().getConditions())
              .filter(c -> "True".equals(c.getStatus()))
              .filter(c -> c.getMessage().contains(claim(n)))
              .isPresent());
      assertEquals("InProgress", condition(tc.getStatus().getTikv().getConditions()).get().getReason());
      Thread.sleep(3000); // several reconciles (1 s apart while in progress)
      for (int later = i + 1; later < TIKV; later++) {
        assertEquals("1Gi", request(claim(later)),
            claim(later) + " waits until " + claim(i) + " has grown");
      }
      StorageVolumeStatus volumes = h.get("basic").getStatus().getTikv().getVolumes().get("tikv");
      assertEquals(i, volumes.getResizedCount());
      assertEquals(new Quantity("2Gi"), volumes.getResizedCapacity());
      grow(i, "2Gi");
    }
    TidbCluster tc = h.await("basic", "VolumeResize gone, 3 volumes resized", t ->
        condition(t.getStatus().getTikv().getConditions()).isEmpty()
            && t.getStatus().getTikv().getVolumes().get("tikv").getResizedCount() == TIKV);
    StorageVolumeStatus volumes = tc.getStatus().getTikv().getVolumes().get("tikv");
    assertEquals(new Quantity("2Gi"), volumes.getCurrentCapacity());
    assertEquals(TIKV, volumes.getCurrentCount());
    assertEquals(new Quantity("1Gi"), h.admin.apps().statefulSets().inNamespace(h.namespace).withName("basic-tikv").get()
        .getSpec().getVolumeClaimTemplates().get(0).getSpec().getResources().getRequests().get("storage"),
        "the StatefulSet's claim template is immutable and kept");
    List<String> reasons = h.events("basic").stream().map(e -> e.getReason()).toList();
    assertEquals(TIKV, reasons.stream().filter("VolumeResizing"::equals).count(), reasons.toString());
    assertTrue(reasons.contains("VolumeResized"), reasons.toString());
  }

  @Test
  @Order(3)
  void aShrinkIsRefusedAndNothingChanges() {
    h.edit("basic", tc -> {
      tc.getSpec().getTikv().getRequests().put("storage", new Quantity("1Gi"));
      return tc;
    });
    TidbCluster tc = h.await("basic", "TiKV VolumeResize=False", t ->
        condition(t.getStatus().getTikv().getConditions())
            .filter(c -> "False".equals(c.getStatus()))
            .isPresent());
    Condition c = condition(tc.getStatus().getTikv().getConditions()).get();
    assertEquals("VolumeShrinkNotSupported", c.getReason());
    assertTrue(c.getMessage().contains("volume shrinking is not supported"), c.getMessage());
    Await.until("the VolumeShrinkNotSupported Warning", ControllerHarness.CONVERGE,
        () -> h.events("basic"), events -> events.stream().anyMatch(e ->
            "Warning".equals(e.getType()) && "VolumeShrinkNotSupported".equals(e.getReason())));
    for (int i = 0; i < TIKV; i++) {
      assertEquals("2Gi", request(claim(i)));
    }
    h.edit("basic", t -> {
      t.getSpec().getTikv().getRequests().put("storage", new Quantity("2Gi"));
      return t;
    });
    h.await("basic", "TiKV VolumeResize gone", t ->
        condition(t.getStatus().getTikv().getConditions()).isEmpty());
  }

  @Test
  @Order(4)
  void aStorageClassWithoutExpansionGetsAWarningAndNothingElse() {
    h.edit("basic", tc -> {
      tc.getSpec().getPd().getRequests().put("storage", new Quantity("2Gi"));
      return tc;
    });
    TidbCluster tc = h.await("basic", "PD VolumeResize=False", t ->
        condition(t.getStatus().getPd().getConditions())
            .filter(c -> "False".equals(c.getStatus()))
            .isPresent());
    Condition c = condition(tc.getStatus().getPd().getConditions()).get();
    assertEquals("VolumeExpansionNotSupported", c.getReason());
    assertTrue(c.getMessage().contains("StorageClass kwok-volume does not allow volume expansion"),
        c.getMessage());
    Await.until("the VolumeExpansionNotSupported Warning", ControllerHarness.CONVERGE,
        () -> h.events("basic"), events -> events.stream().anyMatch(e ->
            "Warning".equals(e.getType()) && "VolumeExpansionNotSupported".equals(e.getReason())));
    assertEquals("1Gi", request("pd-basic-pd-0"));
  }
  @Test
  @Order(5)
  void aReclaimPolicyChangedByHandIsRepairedAtTheNextReconcile() {
    // Found right and remembered since the first test (the recheck period is 30 minutes); the
    // operator's volume cache shows the change, and the next reconcile (a 10 s heartbeat here)
    // puts it back.
    h.admin.persistentVolumes().withName(pv(0)).edit(p -> {
      p.getSpec().setPersistentVolumeReclaimPolicy("Delete");
      return p;
    });
    Await.until(pv(0) + " reclaim policy Retain again", Duration.ofSeconds(60),
        () -> h.admin.persistentVolumes().withName(pv(0)).get(),
        p -> "Retain".equals(p.getSpec().getPersistentVolumeReclaimPolicy()));
  }
}
