package io.tidb.operator.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.cluster.TikvStore;
import io.tidb.operator.controller.config.FailoverSettings;
import io.tidb.operator.pdsim.JournalEntry;
import io.tidb.operator.pdsim.SimulationSettings;
import io.tidb.operator.testsupport.ClusterAccess;
import io.tidb.operator.testsupport.WithLocalControlPlane;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Failover on the full local control plane with the PD simulator, with failover periods of a few
 * seconds and a store that shows Down 4 s after its last heartbeat: a TiDB server unhealthy →
 * a replacement pod → healthy again → the replacement goes; a TiKV store Down → {@code
 * failureStores} → an extra TiKV pod that stays when the store comes back → {@code
 * recoverFailover} → back to the spec's replicas; a PD member unhealthy → recorded → {@code
 * DELETE members/id} with its pod and claims → a fourth member → all healthy → the fourth leaves.
 * One cluster, in order.
 */
@WithLocalControlPlane
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FailoverIT {

  private static final Duration PERIOD = Duration.ofSeconds(5);
  private static ControllerHarness h;

  @BeforeAll
  static void start(ClusterAccess access) {
    h =
        ControllerHarness.start(
            access,
            "failover-it",
            Duration.ofSeconds(5),
            new FailoverSettings(true, PERIOD, PERIOD, PERIOD),
            SimulationSettings.defaults()
                .withHeartbeatTimeouts(Duration.ofSeconds(2), Duration.ofSeconds(4)));
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

  private static boolean event(String reason, String text) {
    return h.events("basic").stream()
        .anyMatch(e -> reason.equals(e.getReason()) && e.getMessage().contains(text));
  }

  @Test
  @Order(1)
  void anUnhealthyTidbServerGetsAReplacementThatGoesWhenItIsHealthyAgain() {
    h.tidb("basic").setHealthy("basic-tidb-1", false);
    TidbCluster tc =
        h.await("basic", "basic-tidb-1 in status.tidb.failureMembers and 3 TiDB replicas", t ->
            t.getStatus().getTidb().getFailureMembers() != null
                && t.getStatus().getTidb().getFailureMembers().containsKey("basic-tidb-1")
                && replicas("basic-tidb") == 3);
    assertEquals(1, tc.getStatus().getTidb().getFailureMembers().size());
    assertTrue(event("Unhealthy", "basic-tidb-1"), "Warning Unhealthy for basic-tidb-1");
    h.await("basic", "the replacement basic-tidb-2 healthy", t ->
        t.getStatus().getTidb().getMembers().containsKey("basic-tidb-2")
            && Boolean.TRUE.equals(t.getStatus().getTidb().getMembers().get("basic-tidb-2")
                .getHealth()));

    h.tidb("basic").setHealthy("basic-tidb-1", true);
    h.await("basic", "records cleared, 2 TiDB replicas, Ready", t ->
        t.getStatus().getTidb().getFailureMembers() == null
            && replicas("basic-tidb") == 2
            && Fixtures.ready(t));
    assertEquals(List.of(), h.pdMutations("basic"), "TiDB failover asks PD for nothing");
  }

  @Test
  @Order(2)
  void aDownStoreGetsAnExtraTikvPodThatStaysUntilRecoverFailover() {
    TidbCluster before = h.get("basic");
    String id = null;
    for (Map.Entry<String, TikvStore> e : before.getStatus().getTikv().getStores().entrySet()) {
      if ("basic-tikv-1".equals(e.getValue().getPodName())) {
        id = e.getKey();
      }
    }
    String storeId = id;
    h.pd("basic").setStoreHeartbeating(Long.parseLong(storeId), false);
    TidbCluster tc =
        h.await("basic", "store " + storeId + " in failureStores and 4 TiKV replicas", t ->
            t.getStatus().getTikv().getFailureStores() != null
                && t.getStatus().getTikv().getFailureStores().containsKey(storeId)
                && replicas("basic-tikv") == 4);
    assertEquals("basic-tikv-1",
        tc.getStatus().getTikv().getFailureStores().get(storeId).getPodName());
    assertFalse(tc.getStatus().getTikv().getFailoverUID() == null);
    assertTrue(event("Unhealthy", "store " + storeId), "Warning Unhealthy for the store");

    // the store comes back: nothing shrinks on its own
    h.pd("basic").setStoreHeartbeating(Long.parseLong(storeId), true);
    h.await("basic", "4 TiKV stores Up", t ->
        t.getStatus().getTikv().getStores().values().stream()
                .filter(s -> "Up".equals(s.getState())).count() == 4);
    try {
      Thread.sleep(PERIOD.multipliedBy(2).toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    assertEquals(4, replicas("basic-tikv"), "no automatic shrink");
    assertTrue(h.get("basic").getStatus().getTikv().getFailureStores().containsKey(storeId));
    assertTrue(h.pdMutations("basic").stream().noneMatch(c -> c.startsWith("DELETE")),
        "a failover deletes no store: " + h.pdMutations("basic"));

    h.edit("basic", t -> {
      t.getSpec().getTikv().setRecoverFailover(true);
      return t;
    });
    TidbCluster after =
        h.await("basic", "failureStores cleared, 3 TiKV replicas, Ready", t ->
            t.getStatus().getTikv().getFailureStores() == null
                && replicas("basic-tikv") == 3
                && Fixtures.ready(t));
    assertEquals(null, after.getStatus().getTikv().getFailoverUID());
    for (TikvStore s : before.getStatus().getTikv().getStores().values()) {
      assertFalse(h.pdMutations("basic").contains("DELETE /pd/api/v1/store/" + s.getId()),
          "an original store is never deleted: " + h.pdMutations("basic"));
    }
    assertTrue(h.pdMutations("basic").stream().anyMatch(c -> c.startsWith("DELETE /pd/api/v1/store/")),
        "the replacement's store is removed as in a scale-in: " + h.pdMutations("basic"));
    assertTrue(event("FailoverRecovered", "TiKV"));
  }

  @Test
  @Order(3)
  void anUnhealthyPdMemberIsDeletedByIdReplacedAndTheExtraMemberGoesWhenAllAreHealthy() {
    int before = h.pdMutations("basic").size();
    String id = h.get("basic").getStatus().getPd().getMembers().get("basic-pd-2").getId();
    h.pd("basic").setMemberHealthy("basic-pd-2", false);
    TidbCluster tc =
        h.await("basic", "basic-pd-2 recorded and deleted, 4 PD replicas", t ->
            t.getStatus().getPd().getFailureMembers() != null
                && t.getStatus().getPd().getFailureMembers().containsKey("basic-pd-2")
                && Boolean.TRUE.equals(
                    t.getStatus().getPd().getFailureMembers().get("basic-pd-2").getMemberDeleted())
                && replicas("basic-pd") == 4);
    assertEquals(id, tc.getStatus().getPd().getFailureMembers().get("basic-pd-2").getMemberID());
    assertTrue(event("PDMemberUnhealthy", "basic-pd-2"), "Warning PDMemberUnhealthy");
    assertTrue(event("PDMemberDeleted", "basic-pd-2"), "Warning PDMemberDeleted");

    h.await("basic", "records cleared, 3 PD replicas, Ready", t ->
        t.getStatus().getPd().getFailureMembers() == null
            && replicas("basic-pd") == 3
            && Fixtures.ready(t));
    List<String> calls = h.pdMutations("basic");
    calls = calls.subList(before, calls.size());
    assertEquals("DELETE /pd/api/v1/members/id/" + id, calls.get(0), calls.toString());
    assertEquals(1, calls.stream().filter(c -> c.contains("/members/id/")).count(), calls.toString());
    // The replacement leaves as in a scale-in: its member is deleted by name if it joined PD.
    // Whether it joined first is a race: once basic-pd-2's fresh pod joins, all members are
    // healthy and the recovery may begin before basic-pd-3's pod has joined.
    boolean joined = h.pd("basic").journal().stream().anyMatch(e ->
        e.event() == JournalEntry.Event.MEMBER_ADDED && "basic-pd-3".equals(e.member()));
    assertEquals(joined, calls.contains("DELETE /pd/api/v1/members/name/basic-pd-3"),
        "the replacement's member is deleted exactly when it had joined (joined=" + joined + "): "
            + calls);
    assertTrue(event("FailoverRecovered", "PD"));
  }
}
