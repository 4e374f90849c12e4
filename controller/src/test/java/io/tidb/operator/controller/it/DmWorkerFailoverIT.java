package io.tidb.operator.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tidb.operator.api.v1alpha1.dm.DmCluster;
import io.tidb.operator.testsupport.ClusterAccess;
import io.tidb.operator.testsupport.WithLocalControlPlane;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A dm-worker that the API reports offline for longer than the failover period is recorded in
 * {@code status.worker.failureMembers} and a replacement pod is added, without any DM API change;
 * with {@code recoverFailover: true} and the worker back online the record goes, the replacement
 * is scaled in, and its offline worker is deleted through the API.
 */
@WithLocalControlPlane
class DmWorkerFailoverIT {

  private static DmHarness h;

  @BeforeAll
  static void start(ClusterAccess access) {
    h = new DmHarness(access, "dm-worker-failover-it", Duration.ofSeconds(3));
  }

  @AfterAll
  static void stop() {
    if (h != null) {
      h.close();
    }
  }

  @Test
  void anOfflineWorkerGetsAReplacementAndRecoveryScalesItIn() {
    h.create("basic", """
        version: v8.5.7
        master: {replicas: 1, storageSize: 1Gi}
        worker: {replicas: 2, storageSize: 1Gi, maxFailoverCount: 1}
        """);
    h.awaitReady("basic");

    h.dm("basic").stopWorker("basic-dm-worker-1", true);
    DmCluster failed = h.await("basic", "basic-dm-worker-1 recorded, its replacement registered", dc ->
        dc.getStatus().getWorker().getFailureMembers() != null
            && dc.getStatus().getWorker().getMembers() != null
            && dc.getStatus().getWorker().getMembers().containsKey("basic-dm-worker-2"));
    assertEquals(Set.of("basic-dm-worker-1"), failed.getStatus().getWorker().getFailureMembers().keySet());
    assertNotNull(failed.getStatus().getWorker().getFailoverUID());
    assertEquals(3, h.statefulSet("basic-dm-worker").getSpec().getReplicas());
    assertEquals(List.of(), h.dmMutations("basic"), "failover changes nothing in DM");
    assertTrue(h.hasEvent("basic", "DMWorkerUnhealthy"));

    h.dm("basic").stopWorker("basic-dm-worker-1", false);
    h.edit("basic", dc -> {
      dc.getSpec().getWorker().setRecoverFailover(true);
      return dc;
    });
    DmCluster dc = h.await("basic", "recovered: Ready with 2 workers", d -> DmHarness.ready(d)
        && d.getStatus().getWorker().getFailureMembers() == null
        && d.getStatus().getWorker().getMembers().size() == 2);
    assertEquals(null, dc.getStatus().getWorker().getFailoverUID());
    assertEquals(2, h.statefulSet("basic-dm-worker").getSpec().getReplicas());
    assertEquals(List.of("DELETE /apis/v1alpha1/members/worker/basic-dm-worker-2"), h.dmMutations("basic"));
    assertTrue(h.hasEvent("basic", "DMWorkerFailoverRecovered"));
  }
}
