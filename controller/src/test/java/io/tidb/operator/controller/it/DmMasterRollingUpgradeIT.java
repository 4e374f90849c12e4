package io.tidb.operator.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.Pod;
import io.tidb.operator.api.v1alpha1.dm.DmCluster;
import io.tidb.operator.testsupport.ClusterAccess;
import io.tidb.operator.testsupport.WithLocalControlPlane;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A dm-master version change rolls the pods from the highest ordinal down, one at a time; each
 * leader hands leadership over before its pod is released.
 */
@WithLocalControlPlane
class DmMasterRollingUpgradeIT {

  private static DmHarness h;

  @BeforeAll
  static void start(ClusterAccess access) {
    h = new DmHarness(access, "dm-upgrade-it");
  }

  @AfterAll
  static void stop() {
    if (h != null) {
      h.close();
    }
  }

  @Test
  void upgradesEveryMasterEvictingTheLeaderBeforeItsPodGoes() {
    h.create("basic", """
        version: v8.5.6
        master: {replicas: 3, storageSize: 1Gi}
        """);
    h.awaitReady("basic");
    h.dm("basic").electLeader("basic-dm-master-1");
    h.await("basic", "leader basic-dm-master-1 in status", dc ->
        "basic-dm-master-1".equals(dc.getStatus().getMaster().getLeader().getName()));

    h.edit("basic", dc -> {
      dc.getSpec().setVersion("v8.5.7");
      return dc;
    });
    DmCluster dc = h.await("basic", "Ready on v8.5.7", d -> DmHarness.ready(d)
        && "pingcap/dm:v8.5.7".equals(d.getStatus().getMaster().getImage()));

    // Pod 2 (not the leader) rolls first; then 1 hands over to 0 and rolls; then 0 hands over.
    assertEquals(List.of(
        "PUT /apis/v1alpha1/leader/1 @basic-dm-master-1",
        "PUT /apis/v1alpha1/leader/1 @basic-dm-master-0"), h.dmMutations("basic"));
    for (Pod pod : h.admin.pods().inNamespace(h.namespace).withLabel("app.kubernetes.io/component", "dm-master")
        .list().getItems()) {
      assertEquals("pingcap/dm:v8.5.7", pod.getSpec().getContainers().get(0).getImage(), pod.getMetadata().getName());
    }
    assertEquals(3, dc.getStatus().getMaster().getMembers().size());
  }
}
