package io.tidb.operator.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tidb.operator.api.v1alpha1.dm.DmCluster;
import io.tidb.operator.testsupport.ClusterAccess;
import io.tidb.operator.testsupport.WithLocalControlPlane;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A dm-master member that stops answering for longer than the failover period is recorded,
 * deleted through the DM API with its pod and data claim, and replaced (one more replica); once
 * every member is healthy the failure is forgotten and the extra member is scaled in again.
 */
@WithLocalControlPlane
class DmMasterFailoverIT {

  private static DmHarness h;

  @BeforeAll
  static void start(ClusterAccess access) {
    h = new DmHarness(access, "dm-failover-it", Duration.ofSeconds(3));
  }

  @AfterAll
  static void stop() {
    if (h != null) {
      h.close();
    }
  }

  @Test
  void anUnhealthyMasterIsFailedOverAndTheClusterRecovers() {
    h.create("basic", """
        version: v8.5.7
        master: {replicas: 3, storageSize: 1Gi, maxFailoverCount: 1}
        """);
    h.awaitReady("basic");

    h.dm("basic").hang("basic-dm-master-1", true);
    h.await("basic", "basic-dm-master-1 failed over", dc -> dc.getStatus().getMaster().getFailureMembers() != null
        && Boolean.TRUE.equals(dc.getStatus().getMaster().getFailureMembers().get("basic-dm-master-1").getMemberDeleted()));
    DmCluster dc = h.await("basic", "Ready with 3 members, failures forgotten", d -> DmHarness.ready(d)
        && d.getStatus().getMaster().getFailureMembers() == null
        && d.getStatus().getMaster().getMembers().size() == 3);

    assertEquals(List.of(
        "DELETE /apis/v1alpha1/members/master/basic-dm-master-1",
        "DELETE /apis/v1alpha1/members/master/basic-dm-master-3"), h.dmMutations("basic"));
    assertEquals(3, h.statefulSet("basic-dm-master").getSpec().getReplicas());
    assertTrue(dc.getStatus().getMaster().getMembers().values().stream().allMatch(m -> m.getHealth()));
    assertTrue(h.hasEvent("basic", "DMMasterMemberUnhealthy"));
    assertTrue(h.hasEvent("basic", "DMMasterMemberFailedOver"));
    assertTrue(h.hasEvent("basic", "DMMasterFailoverRecovered"));
  }
}
