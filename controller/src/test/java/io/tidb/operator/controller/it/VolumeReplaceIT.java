package io.tidb.operator.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.cluster.TikvStore;
import io.tidb.operator.controller.tidbcluster.member.VolumeReplace;
import io.tidb.operator.testsupport.ClusterAccess;
import io.tidb.operator.testsupport.WithLocalControlPlane;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Volume replace on the full local control plane with the PD simulator: pod annotation {@code
 * tidb.pingcap.com/replace-volume: "true"} on a TiKV pod → a spare fourth TiKV pod → the pod's
 * store deleted and Tombstone → its claim and pod deleted → the pod back with a new claim and a
 * new store → the spare goes; the same for a PD pod (leadership moved off, member deleted by id).
 * The StatefulSet never has fewer than the spec's replicas meanwhile. One cluster, in order.
 */
@WithLocalControlPlane
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class VolumeReplaceIT {

  private static ControllerHarness h;

  @BeforeAll
  static void start(ClusterAccess access) {
    h = ControllerHarness.start(access, "volume-replace-it", Duration.ofSeconds(5));
    h.create(Fixtures.basic("basic"));
    h.awaitReady("basic");
  }

  @AfterAll
  static void stop() {
    if (h != null) {
      h.close();
    }
  }

  private static int replicas(String sts) {
    StatefulSet s = h.admin.apps().statefulSets().inNamespace(h.namespace).withName(sts).get();
    return s.getSpec().getReplicas();
  }

  private static Pod pod(String name) {
    return h.admin.pods().inNamespace(h.namespace).withName(name).get();
  }

  private static PersistentVolumeClaim claim(String name) {
    return h.admin.persistentVolumeClaims().inNamespace(h.namespace).withName(name).get();
  }

  private static void annotate(String pod) {
    h.admin.pods().inNamespace(h.namespace).withName(pod).edit(p -> {
      p.getMetadata().getAnnotations().put(VolumeReplace.ANNOTATION, VolumeReplace.VALUE);
      return p;
    });
  }

  private static boolean event(String reason, String text) {
    return h.events("basic").stream()
        .anyMatch(e -> reason.equals(e.getReason()) && e.getMessage().contains(text));
  }

  private static boolean condition(TidbCluster tc, boolean tikv) {
    var conditions = tikv ? tc.getStatus().getTikv().getConditions()
        : tc.getStatus().getPd().getConditions();
    return conditions != null
        && conditions.stream().anyMatch(c -> VolumeReplace.CONDITION.equals(c.getType()));
  }

  @Test
  @Order(1)
  void aTikvPodGetsNewVolumesWithASpareStoreMeanwhile() {
    String claimUid = claim("tikv-basic-tikv-1").getMetadata().getUid();
    String podUid = pod("basic-tikv-1").getMetadata().getUid();
    String storeId = null;
    for (Map.Entry<String, TikvStore> e : h.get("basic").getStatus().getTikv().getStores().entrySet()) {
      if ("basic-tikv-1".equals(e.getValue().getPodName())) {
        storeId = e.getKey();
      }
    }
    String oldStore = storeId;
    AtomicInteger fewest = new AtomicInteger(Integer.MAX_VALUE);
    annotate("basic-tikv-1");
    TidbCluster tc = h.await("basic", "volReplaceInProgress, 4 TiKV replicas", t -> {
      fewest.accumulateAndGet(replicas("basic-tikv"), Math::min);
      return Boolean.TRUE.equals(t.getStatus().getTikv().getVolReplaceInProgress())
          && replicas("basic-tikv") == 4;
    });
    assertTrue(condition(tc, true), "TiKV VolumeReplace condition");
    assertTrue(event(VolumeReplace.STARTED_EVENT, "basic-tikv-1"));

    h.await("basic", "store " + oldStore + " Tombstone, basic-tikv-1 recreated with a new claim",
        t -> {
          fewest.accumulateAndGet(replicas("basic-tikv"), Math::min);
          PersistentVolumeClaim c = claim("tikv-basic-tikv-1");
          Pod p = pod("basic-tikv-1");
          return t.getStatus().getTikv().getTombstoneStores() != null
              && t.getStatus().getTikv().getTombstoneStores().containsKey(oldStore)
              && c != null && !claimUid.equals(c.getMetadata().getUid())
              && p != null && !podUid.equals(p.getMetadata().getUid());
        });
    TidbCluster after = h.await("basic", "replace over, 3 TiKV replicas, Ready", t -> {
      fewest.accumulateAndGet(replicas("basic-tikv"), Math::min);
      return t.getStatus().getTikv().getVolReplaceInProgress() == null
          && replicas("basic-tikv") == 3
          && Fixtures.ready(t);
    });
    assertTrue(fewest.get() >= 3, "never below the spec's replicas: " + fewest.get());
    assertTrue(!condition(after, true), "condition removed");
    String newStore = after.getStatus().getTikv().getStores().values().stream()
        .filter(s -> "basic-tikv-1".equals(s.getPodName())).map(TikvStore::getId)
        .findFirst().orElseThrow();
    assertNotEquals(oldStore, newStore, "basic-tikv-1 joined as a new store");
    List<String> calls = h.pdMutations("basic");
    assertTrue(calls.contains("DELETE /pd/api/v1/store/" + oldStore), calls.toString());
    assertEquals(2, calls.stream().filter(c -> c.startsWith("DELETE /pd/api/v1/store/")).count(),
        "the replaced store and then the spare's: " + calls);
    assertTrue(pod("basic-tikv-1").getMetadata().getAnnotations() == null
        || !pod("basic-tikv-1").getMetadata().getAnnotations().containsKey(VolumeReplace.ANNOTATION));
    assertTrue(event(VolumeReplace.DELETING_EVENT, "tikv-basic-tikv-1"));
    assertTrue(event(VolumeReplace.FINISHED_EVENT, "TiKV"));
  }

  @Test
  @Order(2)
  void aPdPodGetsNewVolumesAfterItsMemberLeftPd() {
    int before = h.pdMutations("basic").size();
    String leader = h.get("basic").getStatus().getPd().getLeader().getName();
    String id = h.get("basic").getStatus().getPd().getMembers().get(leader).getId();
    String claimUid = claim("pd-" + leader).getMetadata().getUid();
    AtomicInteger fewest = new AtomicInteger(Integer.MAX_VALUE);
    annotate(leader);
    h.await("basic", "PD replace over: new claim for " + leader + ", 3 PD replicas, Ready", t -> {
      fewest.accumulateAndGet(replicas("basic-pd"), Math::min);
      PersistentVolumeClaim c = claim("pd-" + leader);
      return c != null && !claimUid.equals(c.getMetadata().getUid())
          && t.getStatus().getPd().getVolReplaceInProgress() == null
          && replicas("basic-pd") == 3
          && Fixtures.ready(t);
    });
    assertTrue(fewest.get() >= 3, "never below the spec's replicas: " + fewest.get());
    List<String> calls = h.pdMutations("basic");
    calls = calls.subList(before, calls.size());
    int transfer = -1;
    int delete = -1;
    for (int i = 0; i < calls.size(); i++) {
      if (calls.get(i).startsWith("POST /pd/api/v1/leader/transfer/") && transfer < 0) {
        transfer = i;
      }
      if (calls.get(i).equals("DELETE /pd/api/v1/members/id/" + id)) {
        delete = i;
      }
    }
    assertTrue(transfer >= 0 && delete > transfer,
        "leadership moved off " + leader + " before its member was deleted: " + calls);
    assertTrue(calls.stream().anyMatch(c -> c.startsWith("DELETE /pd/api/v1/members/name/basic-pd-3")),
        "the spare leaves as in a scale-in: " + calls);
    assertTrue(event(VolumeReplace.FINISHED_EVENT, "PD"));
  }

  @Test
  @Order(3)
  void boundVolumesCarryTheClaimsLabelsAsUpstreamsMetaManagerSetsThem() {
    TidbCluster tc = h.get("basic");
    String storeId = tc.getStatus().getTikv().getStores().values().stream()
        .filter(s -> "basic-tikv-0".equals(s.getPodName())).map(TikvStore::getId)
        .findFirst().orElseThrow();
    String volume = claim("tikv-basic-tikv-0").getSpec().getVolumeName();
    var pv = io.tidb.operator.testsupport.Await.until("PV " + volume + " labelled",
        java.time.Duration.ofSeconds(60), () -> h.admin.persistentVolumes().withName(volume).get(),
        v -> v != null && v.getMetadata().getLabels() != null
            && storeId.equals(v.getMetadata().getLabels().get("tidb.pingcap.com/store-id")));
    Map<String, String> labels = pv.getMetadata().getLabels();
    assertEquals(h.namespace, labels.get("app.kubernetes.io/namespace"));
    assertEquals("basic", labels.get("app.kubernetes.io/instance"));
    assertEquals("tikv", labels.get("app.kubernetes.io/component"));
    assertEquals("tidb-operator", labels.get("app.kubernetes.io/managed-by"));
  }
}
