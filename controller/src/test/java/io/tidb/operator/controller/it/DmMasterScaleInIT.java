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
 * dm-master 3 → 1 with the leader on the highest ordinal: it hands leadership over before its
 * member is deleted, each member is deleted through the DM API before its pod goes, highest
 * first, and the cluster ends Ready with one member that leads.
 */
@WithLocalControlPlane
class DmMasterScaleInIT {

  private static DmHarness h;

  @BeforeAll
  static void start(ClusterAccess access) {
    h = new DmHarness(access, "dm-scalein-it");
  }

  @AfterAll
  static void stop() {
    if (h != null) {
      h.close();
    }
  }

  @Test
  void scalesInThreeToOneKeepingTheLeaderLast() {
    h.create("basic", """
        version: v8.5.7
        master: {replicas: 3, storageSize: 1Gi}
        """);
    h.awaitReady("basic");
    h.dm("basic").electLeader("basic-dm-master-2");
    h.await("basic", "leader basic-dm-master-2 in status", dc ->
        dc.getStatus().getMaster().getLeader() != null
            && "basic-dm-master-2".equals(dc.getStatus().getMaster().getLeader().getName()));

    h.edit("basic", dc -> {
      dc.getSpec().getMaster().setReplicas(1);
      return dc;
    });
    DmCluster dc = h.await("basic", "one dm-master member, Ready", d -> DmHarness.ready(d)
        && d.getStatus().getMaster().getMembers().size() == 1);

    assertEquals(List.of(
        "PUT /apis/v1alpha1/leader/1 @basic-dm-master-2",
        "DELETE /apis/v1alpha1/members/master/basic-dm-master-2",
        "DELETE /apis/v1alpha1/members/master/basic-dm-master-1"), h.dmMutations("basic"));
    assertEquals("basic-dm-master-0", dc.getStatus().getMaster().getLeader().getName());
    assertEquals(1, h.statefulSet("basic-dm-master").getSpec().getReplicas());
    assertTrue(h.hasEvent("basic", "DMMasterLeaderEvicted"));
    assertTrue(h.hasEvent("basic", "DMMasterMemberDeleted"));
  }
}
