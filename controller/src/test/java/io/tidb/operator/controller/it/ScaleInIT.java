package io.tidb.operator.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.pdsim.SimulatedStore;
import io.tidb.operator.pdsim.SimulatedStoreState;
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
 * Scale-in on the full local control plane with the PD simulator: the exact PD calls of PD
 * 3→5→3 (the leader among the removed members), TiKV 4→3 to Tombstone, and TiKV 3→2 refused by
 * PD's max-replicas. One cluster, in order.
 */
@WithLocalControlPlane
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ScaleInIT {

  private static ControllerHarness h;

  @BeforeAll
  static void start(ClusterAccess access) {
    h = ControllerHarness.start(access, "scale-in-it", Duration.ofSeconds(10));
    h.create(Fixtures.basic("basic"));
    h.awaitReady("basic");
  }

  @AfterAll
  static void stop() {
    if (h != null) {
      h.close();
    }
  }

  private static StatefulSet sts(String name) {
    return h.admin.apps().statefulSets().inNamespace(h.namespace).withName(name).get();
  }

  private static Optional<Condition> componentCondition(
      List<Condition> conditions, String type) {
    return conditions == null
        ? Optional.empty()
        : conditions.stream().filter(c -> type.equals(c.getType())).findFirst();
  }

  @Test
  @Order(1)
  void pdScalesOutToFiveAndBackToThreeMovingTheLeaderOffRemovedMembers() {
    h.edit("basic", tc -> {
      tc.getSpec().getPd().setReplicas(5);
      return tc;
    });
    h.await("basic", "5 healthy PD members, Ready", t ->
        Fixtures.ready(t) && t.getStatus().getPd().getMembers().size() == 5);
    assertEquals(List.of(), h.pdMutations("basic"), "scale-out needs no PD call");

    h.pd("basic").transferLeader("basic-pd-4");
    h.await("basic", "the leader basic-pd-4 in status", t ->
        t.getStatus().getPd().getLeader() != null
            && "basic-pd-4".equals(t.getStatus().getPd().getLeader().getName()));
    h.edit("basic", tc -> {
      tc.getSpec().getPd().setReplicas(3);
      return tc;
    });
    TidbCluster tc = h.await("basic", "3 PD members, Ready", t ->
        Fixtures.ready(t) && t.getStatus().getPd().getMembers().size() == 3);

    assertEquals(
        List.of(
            "POST /pd/api/v1/leader/transfer/basic-pd-3",
            "DELETE /pd/api/v1/members/name/basic-pd-4",
            "POST /pd/api/v1/leader/transfer/basic-pd-2",
            "DELETE /pd/api/v1/members/name/basic-pd-3"),
        h.pdMutations("basic"));
    assertEquals(3, sts("basic-pd").getSpec().getReplicas());
    assertEquals("basic-pd-2", tc.getStatus().getPd().getLeader().getName());
    assertTrue(componentCondition(tc.getStatus().getPd().getConditions(), "ScaleIn").isEmpty(),
        "the ScaleIn condition goes when the scale-in is done");
    for (String pvc : List.of("pd-basic-pd-3", "pd-basic-pd-4")) {
      PersistentVolumeClaim claim =
          h.admin.persistentVolumeClaims().inNamespace(h.namespace).withName(pvc).get();
      assertTrue(
          claim.getMetadata().getAnnotations().containsKey("tidb.pingcap.com/pvc-defer-deleting"),
          pvc + " is kept, marked for deferred deletion");
    }
    List<String> reasons = h.events("basic").stream().map(e -> e.getReason()).toList();
    assertTrue(reasons.contains("PDLeaderTransferred"), reasons.toString());
    assertTrue(reasons.contains("PDMemberDeleted"), reasons.toString());
    assertTrue(reasons.contains("ScaledIn"), reasons.toString());
  }

  @Test
  @Order(2)
  void pdScaleOutToAnOrdinalWithAKeptVolumeStartsItEmpty() {
    String uidBefore =
        h.admin.persistentVolumeClaims().inNamespace(h.namespace).withName("pd-basic-pd-3").get()
            .getMetadata().getUid();
    h.simulator.recorder().clear();
    h.edit("basic", tc -> {
      tc.getSpec().getPd().setReplicas(4);
      return tc;
    });
    h.await("basic", "4 PD members, Ready", t ->
        Fixtures.ready(t) && t.getStatus().getPd().getMembers().size() == 4);
    PersistentVolumeClaim claim =
        h.admin.persistentVolumeClaims().inNamespace(h.namespace).withName("pd-basic-pd-3").get();
    assertTrue(!uidBefore.equals(claim.getMetadata().getUid()),
        "the removed member's claim was deleted and the StatefulSet made a new one");
    assertTrue(claim.getMetadata().getAnnotations() == null
        || !claim.getMetadata().getAnnotations().containsKey("tidb.pingcap.com/pvc-defer-deleting"));
    h.edit("basic", tc -> {
      tc.getSpec().getPd().setReplicas(3);
      return tc;
    });
    h.await("basic", "3 PD members, Ready", t ->
        Fixtures.ready(t) && t.getStatus().getPd().getMembers().size() == 3);
  }

  @Test
  @Order(3)
  void tikvScalesInFromFourToThreeThroughOfflineToTombstone() {
    h.edit("basic", tc -> {
      tc.getSpec().getTikv().setReplicas(4);
      return tc;
    });
    h.await("basic", "4 TiKV stores, Ready", t ->
        Fixtures.ready(t) && t.getStatus().getTikv().getStores().size() == 4);
    SimulatedStore removed =
        Await.until("basic-tikv-3's store holds leaders", ControllerHarness.CONVERGE,
            () -> h.pd("basic").stores().stream()
                .filter(s -> "basic-tikv-3".equals(s.podName()))
                .filter(s -> s.state() == SimulatedStoreState.UP)
                .findFirst(),
            s -> s.isPresent() && s.get().leaderCount() > 0).orElseThrow();
    h.simulator.recorder().clear();

    h.edit("basic", tc -> {
      tc.getSpec().getTikv().setReplicas(3);
      return tc;
    });
    TidbCluster tc = h.await("basic", "3 TiKV stores, Ready", t ->
        Fixtures.ready(t) && t.getStatus().getTikv().getStores().size() == 3);

    long id = removed.id();
    assertEquals(
        List.of(
            "POST /pd/api/v1/schedulers store=" + id,
            "DELETE /pd/api/v1/store/" + id,
            "DELETE /pd/api/v1/schedulers/evict-leader-scheduler-" + id),
        h.pdMutations("basic"));
    assertEquals(3, sts("basic-tikv").getSpec().getReplicas());
    assertTrue(tc.getStatus().getTikv().getTombstoneStores().containsKey(Long.toString(id)));
    assertTrue(h.pd("basic").evictLeaderStoreIds().isEmpty(), "no evict-leader scheduler is left");
    assertTrue(h.events("basic").stream().anyMatch(e ->
        "StoreDeleted".equals(e.getReason()) && e.getMessage().contains("store " + id)));
  }

  @Test
  @Order(4)
  void tikvScaleInBelowMaxReplicasIsRefused() {
    h.simulator.recorder().clear();
    h.edit("basic", tc -> {
      tc.getSpec().getTikv().setReplicas(2);
      return tc;
    });
    TidbCluster tc = h.await("basic", "TiKV ScaleIn=False", t ->
        componentCondition(t.getStatus().getTikv().getConditions(), "ScaleIn")
            .filter(c -> "False".equals(c.getStatus()))
            .isPresent());
    Condition c = componentCondition(tc.getStatus().getTikv().getConditions(), "ScaleIn").get();
    assertEquals("FailedScaleIn", c.getReason());
    assertTrue(c.getMessage().contains("max-replicas"), c.getMessage());
    assertEquals(tc.getMetadata().getGeneration(), c.getObservedGeneration());
    assertTrue(Fixtures.condition(tc, "Ready").orElseThrow().getMessage().contains("TiKV"),
        "the cluster's Ready condition says why");
    Await.until("the FailedScaleIn Warning", ControllerHarness.CONVERGE,
        () -> h.events("basic"),
        events -> events.stream().anyMatch(e ->
            "Warning".equals(e.getType()) && "FailedScaleIn".equals(e.getReason())));
    assertEquals(3, sts("basic-tikv").getSpec().getReplicas());
    assertEquals(List.of(), h.pdMutations("basic"), "nothing was asked of PD");

    h.edit("basic", t -> {
      t.getSpec().getTikv().setReplicas(3);
      return t;
    });
    h.await("basic", "Ready with the ScaleIn condition gone", t ->
        Fixtures.ready(t)
            && componentCondition(t.getStatus().getTikv().getConditions(), "ScaleIn").isEmpty());
  }
}
