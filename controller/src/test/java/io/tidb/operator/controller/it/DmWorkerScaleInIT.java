package io.tidb.operator.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tidb.operator.api.v1alpha1.dm.DmCluster;
import io.tidb.operator.testsupport.ClusterAccess;
import io.tidb.operator.testsupport.WithLocalControlPlane;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * dm-worker 2 → 1 while both workers are bound to sources: refused (condition, Warning Event, no
 * pod removed, no DM call); once the highest worker's source is gone, the pod goes and the offline
 * worker is deleted through the DM API.
 */
@WithLocalControlPlane
class DmWorkerScaleInIT {

  private static DmHarness h;

  @BeforeAll
  static void start(ClusterAccess access) {
    h = new DmHarness(access, "dm-worker-it");
  }

  @AfterAll
  static void stop() {
    if (h != null) {
      h.close();
    }
  }

  @Test
  void aBoundWorkerIsNotScaledInUntilItIsFree() {
    h.create("basic", """
        version: v8.5.7
        master: {replicas: 1, storageSize: 1Gi}
        worker: {replicas: 2, storageSize: 1Gi}
        """);
    h.awaitReady("basic");
    h.dm("basic").addSource("mysql-1");
    h.dm("basic").addSource("mysql-2");
    h.await("basic", "both workers bound", dc -> dc.getStatus().getWorker().getMembers().values().stream()
        .allMatch(w -> "bound".equals(w.getStage())));

    h.edit("basic", dc -> {
      dc.getSpec().getWorker().setReplicas(1);
      return dc;
    });
    DmCluster refused = h.await("basic", "ScaleInRefused on the workers", dc ->
        dc.getStatus().getWorker().getConditions() != null
            && dc.getStatus().getWorker().getConditions().stream()
                .anyMatch(c -> "ScaleInRefused".equals(c.getType())));
    assertTrue(refused.getStatus().getWorker().getConditions().get(0).getMessage()
        .startsWith("basic-dm-worker-1 is bound to source mysql-2"));
    assertTrue(h.hasEvent("basic", "DMWorkerScaleInRefused"));
    assertEquals(2, h.statefulSet("basic-dm-worker").getSpec().getReplicas());
    assertEquals(List.of(), h.dmMutations("basic"));

    h.dm("basic").removeSource("mysql-2");
    DmCluster dc = h.await("basic", "one worker, Ready", d -> DmHarness.ready(d)
        && d.getStatus().getWorker().getMembers().size() == 1);
    assertEquals(1, h.statefulSet("basic-dm-worker").getSpec().getReplicas());
    assertEquals(List.of("DELETE /apis/v1alpha1/members/worker/basic-dm-worker-1"), h.dmMutations("basic"));
    assertEquals(null, dc.getStatus().getWorker().getConditions(), "the refusal is gone");
  }
}
