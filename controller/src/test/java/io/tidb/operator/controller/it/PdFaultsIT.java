package io.tidb.operator.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Pod;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.pdsim.ClusterKey;
import io.tidb.operator.pdsim.FaultRule;
import io.tidb.operator.pdsim.SimulatedStore;
import io.tidb.operator.pdsim.SimulatedStoreState;
import io.tidb.operator.testsupport.ClusterAccess;
import io.tidb.operator.testsupport.WithLocalControlPlane;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * PD failing in the middle of a scale-in (5xx on the store deletion) and of an upgrade (every PD
 * request slower than the operator's timeout): no destructive step is taken while PD fails,
 * status says why, and the operation completes once PD answers again.
 */
@WithLocalControlPlane
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PdFaultsIT {

  private static ControllerHarness h;
  private static ClusterKey key;

  @BeforeAll
  static void start(ClusterAccess access) {
    h = ControllerHarness.start(access, "pd-faults-it", Duration.ofSeconds(10));
    TidbCluster tc = Fixtures.basic("faults");
    tc.getSpec().getTikv().setReplicas(4);
    h.create(tc);
    h.awaitReady("faults");
    key = new ClusterKey(h.namespace, "faults");
  }

  @AfterAll
  static void stop() {
    if (h != null) {
      h.close();
    }
  }

  private static Optional<Condition> tikvCondition(TidbCluster t, String type) {
    List<Condition> cs = t.getStatus().getTikv().getConditions();
    return cs == null ? Optional.empty() : cs.stream().filter(c -> type.equals(c.getType())).findFirst();
  }

  @Test
  @Order(1)
  void aStoreDeletionAnswered500IsRetriedWithBackoffAndCompletesWhenPdRecovers() {
    int fault = h.simulator.faults().add(
        new FaultRule(key, "pd", null, "DELETE", "/pd/api/v1/store/", 500, Duration.ZERO, 0));
    h.simulator.recorder().clear();
    h.edit("faults", tc -> {
      tc.getSpec().getTikv().setReplicas(3);
      return tc;
    });
    TidbCluster failing = h.await("faults", "ScaleIn condition naming the failed PD call", t ->
        tikvCondition(t, "ScaleIn").map(Condition::getMessage)
            .filter(m -> m.contains("a PD call failed")).isPresent());
    assertTrue(tikvCondition(failing, "ScaleIn").get().getMessage().contains("500"),
        tikvCondition(failing, "ScaleIn").get().getMessage());
    SimulatedStore store = h.pd("faults").stores().stream()
        .filter(s -> "faults-tikv-3".equals(s.podName())).findFirst().orElseThrow();
    assertEquals(SimulatedStoreState.UP, store.state(), "PD refused, so the store is still Up");
    assertEquals(4, h.admin.apps().statefulSets().inNamespace(h.namespace)
        .withName("faults-tikv").get().getSpec().getReplicas());
    long deletes = h.pdMutations("faults").stream()
        .filter(m -> m.startsWith("DELETE /pd/api/v1/store/")).count();
    assertTrue(deletes >= 1, h.pdMutations("faults").toString());

    h.simulator.faults().remove(fault);
    h.await("faults", "3 TiKV stores, Ready", t ->
        Fixtures.ready(t) && t.getStatus().getTikv().getStores().size() == 3);
    List<String> mutations = h.pdMutations("faults");
    assertEquals("DELETE /pd/api/v1/store/" + store.id(),
        mutations.stream().filter(m -> m.startsWith("DELETE /pd/api/v1/store/")).reduce((a, b) -> b)
            .orElseThrow(),
        "the last deletion succeeded: " + mutations);
    assertTrue(mutations.get(mutations.size() - 1)
        .equals("DELETE /pd/api/v1/schedulers/evict-leader-scheduler-" + store.id()), mutations.toString());
  }

  @Test
  @Order(2)
  void anUpgradeWaitsWhilePdIsTooSlowToAnswerAndSaysSo() throws Exception {
    Map<String, String> podUids = pods();
    int fault = h.simulator.faults().add(
        new FaultRule(key, "pd", null, null, "/pd/api", 0, Duration.ofSeconds(3), 0));
    h.simulator.recorder().clear();
    h.edit("faults", tc -> {
      tc.getSpec().setVersion("v8.5.8");
      return tc;
    });
    TidbCluster stale = h.await("faults", "PDReachable=False", t ->
        Fixtures.condition(t, "PDReachable").filter(c -> "False".equals(c.getStatus())).isPresent());
    Condition reachable = Fixtures.condition(stale, "PDReachable").get();
    assertEquals("Unreachable", reachable.getReason());
    assertTrue(reachable.getMessage().startsWith("PD did not answer"), reachable.getMessage());
    assertEquals(Boolean.FALSE, stale.getStatus().getPd().getSynced());
    assertEquals(Boolean.FALSE, stale.getStatus().getTikv().getSynced());
    assertTrue(stale.getStatus().getPd().getMembers().values().stream()
        .noneMatch(m -> Boolean.TRUE.equals(m.getHealth())), "PD health is not claimed");
    assertEquals(Boolean.FALSE, stale.getStatus().getPd().getLeader().getHealth());

    // A while with PD failing: no pod is replaced and nothing is asked of PD.
    Thread.sleep(15_000);
    assertEquals(podUids, pods(), "no pod was restarted while PD could not be read");
    assertEquals(List.of(), h.pdMutations("faults").stream()
        .filter(m -> !m.endsWith("-> 503")).collect(Collectors.toList()));

    h.simulator.faults().remove(fault);
    h.await("faults", "every pod on v8.5.8, Ready", t ->
        Fixtures.ready(t)
            && "pingcap/pd:v8.5.8".equals(t.getStatus().getPd().getImage())
            && "pingcap/tikv:v8.5.8".equals(t.getStatus().getTikv().getImage())
            && "pingcap/tidb:v8.5.8".equals(t.getStatus().getTidb().getImage()));
    assertEquals("True", Fixtures.condition(h.get("faults"), "PDReachable").orElseThrow().getStatus());
  }

  private static Map<String, String> pods() {
    return h.admin.pods().inNamespace(h.namespace)
        .withLabel("app.kubernetes.io/instance", "faults").list().getItems().stream()
        .filter(p -> !"discovery".equals(p.getMetadata().getLabels().get("app.kubernetes.io/component")))
        .collect(Collectors.toMap(p -> p.getMetadata().getName(), (Pod p) -> p.getMetadata().getUid()));
  }
}
