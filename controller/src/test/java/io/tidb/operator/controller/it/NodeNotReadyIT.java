package io.tidb.operator.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.TolerationBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.controller.config.FailoverSettings;
import io.tidb.operator.pdsim.SimulationSettings;
import io.tidb.operator.testsupport.Await;
import io.tidb.operator.testsupport.ClusterAccess;
import io.tidb.operator.testsupport.WithLocalControlPlane;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A node that goes NotReady, end to end on the full local control plane: kwok's node chaos stage
 * ({@code node-not-ready}, selected by the node label {@code node-not-ready.stage.kwok.x-k8s.io})
 * turns the node of {@code basic-pd-2} NotReady; kube-controller-manager's node lifecycle
 * controller taints it; PD (the simulator, which cannot reach the pods of a NotReady node) reports
 * the member unhealthy; after the PD failover period the operator records it, deletes it from PD by id with its pod and claims; the pod comes
 * back on another node (the NotReady node is tainted) and joins as a new member with a fourth PD
 * replica; every member is healthy again, so the record clears and the fourth leaves; the node
 * recovers (label removed) and nothing more happens. The PD pods run on nodes of their own (a
 * taint only this cluster tolerates), so no other test's pods share the node that fails.
 */
@WithLocalControlPlane
class NodeNotReadyIT {

  private static final Duration PERIOD = Duration.ofSeconds(5);
  private static final String CHAOS = "node-not-ready.stage.kwok.x-k8s.io";
  private static final String POOL = "tidb-operator-it/pool";
  private static ControllerHarness h;
  private static final List<String> NODES = new ArrayList<>();

  @BeforeAll
  static void start(ClusterAccess access) {
    h = ControllerHarness.start(access, "node-not-ready-it", Duration.ofSeconds(5),
        new FailoverSettings(true, PERIOD, Duration.ofMinutes(30), Duration.ofMinutes(30)),
        SimulationSettings.defaults());
    for (int i = 0; i < 3; i++) {
      String name = h.namespace + "-pd-" + i;
      h.admin.nodes().resource(new NodeBuilder()
          .withNewMetadata().withName(name)
          .withAnnotations(Map.of("kwok.x-k8s.io/node", "fake", "node.alpha.kubernetes.io/ttl", "0"))
          .withLabels(Map.of(POOL, h.namespace, "kubernetes.io/hostname", name,
              "kubernetes.io/os", "linux", "kubernetes.io/arch", "amd64"))
          .endMetadata()
          .withNewSpec().addNewTaint().withKey(POOL).withValue(h.namespace)
          .withEffect("NoSchedule").endTaint().endSpec()
          .build()).create();
      NODES.add(name);
    }
    for (String node : NODES) {
      Await.until("node " + node + " Ready", Duration.ofSeconds(60), () -> nodeReady(node),
          Boolean.TRUE::equals);
    }
    TidbCluster tc = Fixtures.basic("basic");
    Toleration pool = new TolerationBuilder().withKey(POOL).withOperator("Equal")
        .withValue(h.namespace).withEffect("NoSchedule").build();
    tc.getSpec().getPd().setNodeSelector(Map.of(POOL, h.namespace));
    tc.getSpec().getPd().setTolerations(List.of(pool));
    h.create(tc);
    h.awaitReady("basic");
  }

  @AfterAll
  static void stop() {
    if (h != null) {
      for (String node : NODES) {
        h.admin.nodes().withName(node).delete();
      }
      h.close();
    }
  }

  private static Boolean nodeReady(String node) {
    Node n = h.admin.nodes().withName(node).get();
    if (n == null || n.getStatus() == null || n.getStatus().getConditions() == null) {
      return null;
    }
    return n.getStatus().getConditions().stream()
        .filter(c -> "Ready".equals(c.getType()))
        .map(c -> "True".equals(c.getStatus()))
        .findFirst().orElse(null);
  }

  /**
   * Sets or removes the label that makes kwok turn the node NotReady, as a merge patch without a
   * resourceVersion: the node controller and kwok write the node too, and an edit (read, change,
   * update) then failed with 409 Conflict.
   */
  private static void chaos(String node, boolean on) {
    h.admin.nodes().withName(node).patch(PatchContext.of(PatchType.JSON_MERGE),
        "{\"metadata\":{\"labels\":{\"" + CHAOS + "\":" + (on ? "\"true\"" : "null") + "}}}");
  }

  private static Pod pod(String name) {
    return h.admin.pods().inNamespace(h.namespace).withName(name).get();
  }

  private static int replicas(String sts) {
    StatefulSet s = h.admin.apps().statefulSets().inNamespace(h.namespace).withName(sts).get();
    return s.getSpec().getReplicas();
  }

  @Test
  void aPdPodsNodeGoesNotReadyFailoverReplacesItAndTheRecordClears() {
    Pod before = pod("basic-pd-2");
    String node = before.getSpec().getNodeName();
    assertTrue(NODES.contains(node), "PD runs on the test's own nodes: " + node);
    String memberId = h.get("basic").getStatus().getPd().getMembers().get("basic-pd-2").getId();
    int calls = h.pdMutations("basic").size();

    chaos(node, true);
    Await.until("node " + node + " NotReady (kwok's node-not-ready stage; a control plane started"
            + " before hack/control-plane.sh had it needs a restart: down, up)",
        Duration.ofSeconds(30), () -> nodeReady(node), Boolean.FALSE::equals);
    h.await("basic", "PD reports basic-pd-2 unhealthy", t ->
        t.getStatus().getPd().getMembers() != null
            && (!t.getStatus().getPd().getMembers().containsKey("basic-pd-2")
                || Boolean.FALSE.equals(
                    t.getStatus().getPd().getMembers().get("basic-pd-2").getHealth())));

    TidbCluster recorded = h.await("basic", "basic-pd-2 recorded and its member deleted", t ->
        t.getStatus().getPd().getFailureMembers() != null
            && t.getStatus().getPd().getFailureMembers().containsKey("basic-pd-2")
            && Boolean.TRUE.equals(
                t.getStatus().getPd().getFailureMembers().get("basic-pd-2").getMemberDeleted()));
    assertEquals(memberId,
        recorded.getStatus().getPd().getFailureMembers().get("basic-pd-2").getMemberID());

    h.await("basic", "basic-pd-2 back on another node, records cleared, 3 PD replicas, Ready",
        t -> {
          Pod now = pod("basic-pd-2");
          return now != null && !before.getMetadata().getUid().equals(now.getMetadata().getUid())
              && !node.equals(now.getSpec().getNodeName())
              && t.getStatus().getPd().getFailureMembers() == null
              && replicas("basic-pd") == 3
              && Fixtures.ready(t);
        });
    List<String> after = h.pdMutations("basic");
    after = after.subList(calls, after.size());
    assertEquals("DELETE /pd/api/v1/members/id/" + memberId, after.get(0), after.toString());
    assertEquals(1, after.stream().filter(c -> c.contains("/members/id/")).count(), after.toString());
    // The replacement may be scaled in before its pod ever started (it then never joined PD and
    // there is no member to delete); once it had joined, it leaves as in a scale-in.
    boolean replacementJoined = h.pd("basic").journal().stream().anyMatch(e ->
        e.event() == io.tidb.operator.pdsim.JournalEntry.Event.MEMBER_ADDED && "basic-pd-3".equals(e.member()));
    assertEquals(replacementJoined, after.contains("DELETE /pd/api/v1/members/name/basic-pd-3"),
        "the replacement (joined PD: " + replacementJoined + ") leaves as in a scale-in: " + after);
    assertTrue(after.stream().noneMatch(c -> c.startsWith("DELETE /pd/api/v1/store/")),
        "TiKV (on other nodes) is not touched: " + after);

    chaos(node, false);
    Await.until("node " + node + " Ready again", Duration.ofSeconds(60), () -> nodeReady(node),
        Boolean.TRUE::equals);
    try {
      Thread.sleep(PERIOD.multipliedBy(3).toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    TidbCluster end = h.awaitReady("basic");
    assertEquals(null, end.getStatus().getPd().getFailureMembers());
    assertEquals(3, replicas("basic-pd"));
    List<String> all = h.pdMutations("basic");
    assertEquals(1, all.stream().filter(c -> c.contains("/members/id/")).count(),
        "one failover for one failed node: " + all);
    assertNotEquals(node, pod("basic-pd-2").getSpec().getNodeName());
  }
}
