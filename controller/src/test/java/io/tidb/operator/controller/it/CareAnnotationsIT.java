package io.tidb.operator.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import io.tidb.operator.api.v1alpha1.cluster.EvictLeaderStatus;
import io.tidb.operator.api.v1alpha1.cluster.SuspendAction;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.cluster.TikvStore;
import io.tidb.operator.testsupport.Await;
import io.tidb.operator.testsupport.ClusterAccess;
import io.tidb.operator.testsupport.WithLocalControlPlane;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The care annotations and suspend on the full local control plane with the PD simulator, one
 * cluster, in order: {@code tidb.pingcap.com/evict-leader=none} begins an eviction that stays
 * (not ended as stray) until the annotation goes; {@code delete-pod} deletes the pod once its
 * leaders are gone and ends the eviction when the new pod is Ready; {@code pd-transfer-leader}
 * moves PD's leadership; {@code suspendAction.suspendStatefulSet} removes the StatefulSets, keeps
 * the claims and Services, and resumes.
 */
@WithLocalControlPlane
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class CareAnnotationsIT {

  private static final String EVICT = "tidb.pingcap.com/evict-leader";
  private static final String TRANSFER = "tidb.pingcap.com/pd-transfer-leader";

  private static ControllerHarness h;

  @BeforeAll
  static void start(ClusterAccess access) {
    h = ControllerHarness.start(access, "care-it", Duration.ofSeconds(5));
    h.create(Fixtures.basic("basic"));
    h.awaitReady("basic");
  }

  @AfterAll
  static void stop() {
    if (h != null) {
      h.close();
    }
  }

  private static Pod pod(String name) {
    return h.admin.pods().inNamespace(h.namespace).withName(name).get();
  }

  private static void annotate(String pod, String key, String value) {
    h.admin.pods().inNamespace(h.namespace).withName(pod).edit(p -> {
      Map<String, String> a = p.getMetadata().getAnnotations() == null
          ? new HashMap<>() : new HashMap<>(p.getMetadata().getAnnotations());
      if (value == null) {
        a.remove(key);
      } else {
        a.put(key, value);
      }
      p.getMetadata().setAnnotations(a);
      return p;
    });
  }

  private static String storeOf(TidbCluster tc, String pod) {
    return tc.getStatus().getTikv().getStores().values().stream()
        .filter(s -> pod.equals(s.getPodName()))
        .map(TikvStore::getId)
        .findFirst()
        .orElseThrow();
  }

  private static EvictLeaderStatus record(TidbCluster tc, String pod) {
    Map<String, EvictLeaderStatus> m = tc.getStatus().getTikv().getEvictLeader();
    return m == null ? null : m.get(pod);
  }

  @Test
  @Order(1)
  void evictLeaderNoneBeginsAnEvictionThatStaysUntilTheAnnotationGoes() throws Exception {
    String id = storeOf(h.get("basic"), "basic-tikv-1");
    h.simulator.recorder().clear();
    annotate("basic-tikv-1", EVICT, "none");
    TidbCluster tc = h.await("basic", "status.tikv.evictLeader[basic-tikv-1]",
        t -> record(t, "basic-tikv-1") != null && "none".equals(record(t, "basic-tikv-1").getValue()));
    EvictLeaderStatus e = record(tc, "basic-tikv-1");
    assertEquals(pod("basic-tikv-1").getMetadata().getCreationTimestamp(), e.getPodCreateTime());
    assertNotNull(e.getBeginTime());
    assertTrue(h.pd("basic").evictLeaderStoreIds().contains(Long.parseLong(id)));

    // Several reconciles later (resync 5 s) the eviction is still there: not a stray one.
    Thread.sleep(12_000);
    assertTrue(h.pd("basic").evictLeaderStoreIds().contains(Long.parseLong(id)));
    assertEquals(List.of("POST /pd/api/v1/schedulers store=" + id), h.pdMutations("basic"));

    annotate("basic-tikv-1", EVICT, null);
    h.await("basic", "the record gone", t -> record(t, "basic-tikv-1") == null);
    assertEquals(
        List.of("POST /pd/api/v1/schedulers store=" + id,
            "DELETE /pd/api/v1/schedulers/evict-leader-scheduler-" + id),
        h.pdMutations("basic"));
    assertTrue(h.pd("basic").evictLeaderStoreIds().isEmpty());
    List<String> reasons = h.events("basic").stream().map(ev -> ev.getReason()).toList();
    assertTrue(reasons.contains("EvictLeaderBegun") && reasons.contains("EvictLeaderEnded"),
        reasons.toString());
    h.awaitReady("basic");
  }

  @Test
  @Order(2)
  void evictLeaderDeletePodRecreatesThePodAndEndsTheEviction() {
    String id = storeOf(h.get("basic"), "basic-tikv-2");
    String uid = pod("basic-tikv-2").getMetadata().getUid();
    h.simulator.recorder().clear();
    annotate("basic-tikv-2", EVICT, "delete-pod");
    Await.until("basic-tikv-2 recreated", ControllerHarness.CONVERGE, () -> pod("basic-tikv-2"),
        p -> p != null && !uid.equals(p.getMetadata().getUid()));
    h.await("basic", "the eviction ended and Ready",
        t -> record(t, "basic-tikv-2") == null && Fixtures.ready(t));
    assertEquals(
        List.of("POST /pd/api/v1/schedulers store=" + id,
            "DELETE /pd/api/v1/schedulers/evict-leader-scheduler-" + id),
        h.pdMutations("basic"));
    Pod recreated = pod("basic-tikv-2");
    assertTrue(recreated.getMetadata().getAnnotations() == null
        || !recreated.getMetadata().getAnnotations().containsKey(EVICT));
    assertTrue(h.events("basic").stream().anyMatch(ev -> "PodDeleted".equals(ev.getReason())
        && ev.getMessage().contains("basic-tikv-2")));
  }

  @Test
  @Order(3)
  void pdTransferLeaderMovesLeadershipOffTheMember() {
    String leader = h.get("basic").getStatus().getPd().getLeader().getName();
    h.simulator.recorder().clear();
    annotate(leader, TRANSFER, "none");
    TidbCluster tc = h.await("basic", "the leader moved off " + leader,
        t -> t.getStatus().getPd().getLeader() != null
            && !leader.equals(t.getStatus().getPd().getLeader().getName()));
    String now = tc.getStatus().getPd().getLeader().getName();
    assertEquals(List.of("POST /pd/api/v1/leader/transfer/" + now), h.pdMutations("basic"));
    assertTrue(h.events("basic").stream().anyMatch(ev ->
        "PDLeaderTransferred".equals(ev.getReason()) && ev.getMessage().contains(TRANSFER)));
    annotate(leader, TRANSFER, null);
    h.awaitReady("basic");
  }

  @Test
  @Order(4)
  void suspendRemovesTheStatefulSetsKeepsTheClaimsAndResumes() {
    List<String> claimsBefore = claims();
    h.edit("basic", t -> {
      SuspendAction a = new SuspendAction();
      a.setSuspendStatefulSet(true);
      t.getSpec().setSuspendAction(a);
      return t;
    });
    TidbCluster tc = h.await("basic", "every component Suspend, no StatefulSet",
        t -> "Suspend".equals(t.getStatus().getPd().getPhase())
            && "Suspend".equals(t.getStatus().getTikv().getPhase())
            && "Suspend".equals(t.getStatus().getTidb().getPhase())
            && statefulSets().isEmpty()
            && t.getStatus().getPd().getStatefulSet() == null);
    assertEquals(claimsBefore, claims(), "volume claims are kept");
    for (String svc : List.of("basic-pd", "basic-pd-peer", "basic-tikv-peer", "basic-tidb")) {
      assertNotNull(h.admin.resources(Service.class).inNamespace(h.namespace).withName(svc).get(),
          svc + " is kept");
    }
    assertEquals("Suspended", Fixtures.condition(tc, "Ready").orElseThrow().getReason());
    List<String> suspended = h.events("basic").stream()
        .filter(ev -> "StatefulSetSuspended".equals(ev.getReason()))
        .map(ev -> ev.getMessage().substring(0, ev.getMessage().indexOf(':')))
        .toList();
    assertEquals(List.of("TiDB", "TiKV", "PD"), suspended, "upstream's order");

    h.edit("basic", t -> {
      t.getSpec().getSuspendAction().setSuspendStatefulSet(false);
      return t;
    });
    tc = h.awaitReady("basic");
    assertEquals("Normal", tc.getStatus().getPd().getPhase());
    assertEquals(3, statefulSets().size());
    assertEquals(claimsBefore, claims(), "the pods came back on the kept claims");
    assertNull(tc.getStatus().getTikv().getConditions() == null ? null
        : tc.getStatus().getTikv().getConditions().stream()
            .filter(c -> "Suspended".equals(c.getType())).findFirst().orElse(null));
  }

  private static List<String> statefulSets() {
    return h.admin.apps().statefulSets().inNamespace(h.namespace).list().getItems().stream()
        .map(s -> s.getMetadata().getName()).sorted().toList();
  }

  private static List<String> claims() {
    return h.admin.persistentVolumeClaims().inNamespace(h.namespace).list().getItems().stream()
        .map(c -> c.getMetadata().getName() + "/" + c.getMetadata().getUid()).sorted().toList();
  }

}
