package io.tidb.operator.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.tidb.operator.api.v1alpha1.dm.DmCluster;
import io.tidb.operator.testsupport.ClusterAccess;
import io.tidb.operator.testsupport.WithLocalControlPlane;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A DMCluster from nothing to Ready on the full local control plane: the objects upstream lays
 * out, status from the DM master API (members, leader, workers), only reads sent to dm-master,
 * then pause.
 */
@WithLocalControlPlane
class DmClusterBringUpIT {

  private static DmHarness h;

  @BeforeAll
  static void start(ClusterAccess access) {
    h = new DmHarness(access, "dm-bringup-it");
  }

  @AfterAll
  static void stop() {
    if (h != null) {
      h.close();
    }
  }

  @Test
  void bringsUpMastersAndWorkersToReadyWithStatusFromTheDmApi() {
    h.create("basic", """
        version: v8.5.7
        discovery: {}
        master: {replicas: 3, storageSize: 1Gi, config: {log-level: info}}
        worker: {replicas: 2, storageSize: 1Gi}
        """);
    DmCluster dc = h.awaitReady("basic");

    assertEquals(3, dc.getStatus().getMaster().getMembers().size());
    assertTrue(dc.getStatus().getMaster().getMembers().values().stream().allMatch(m -> m.getHealth()));
    assertEquals("basic-dm-master-0", dc.getStatus().getMaster().getLeader().getName());
    assertEquals("pingcap/dm:v8.5.7", dc.getStatus().getMaster().getImage());
    assertEquals(Boolean.TRUE, dc.getStatus().getMaster().getSynced());
    assertEquals("Normal", dc.getStatus().getMaster().getPhase());
    assertEquals(List.of("basic-dm-worker-0", "basic-dm-worker-1"),
        List.copyOf(dc.getStatus().getWorker().getMembers().keySet()));
    assertEquals("free", dc.getStatus().getWorker().getMembers().get("basic-dm-worker-0").getStage());

    StatefulSet master = h.statefulSet("basic-dm-master");
    assertEquals(3, master.getSpec().getReplicas());
    assertEquals("basic-dm-master-peer", master.getSpec().getServiceName());
    assertEquals("DMCluster", master.getMetadata().getOwnerReferences().get(0).getKind());
    assertEquals("dm-cluster", master.getMetadata().getLabels().get("app.kubernetes.io/name"));
    assertEquals(2, h.statefulSet("basic-dm-worker").getSpec().getReplicas());
    Service client = h.admin.services().inNamespace(h.namespace).withName("basic-dm-master").get();
    assertEquals(8261, client.getSpec().getPorts().get(0).getPort());
    assertEquals("None",
        h.admin.services().inNamespace(h.namespace).withName("basic-dm-worker-peer").get().getSpec().getClusterIP());
    ConfigMap cm = h.admin.configMaps().inNamespace(h.namespace).withName("basic-dm-master").get();
    assertEquals("log-level = 'info'\n", cm.getData().get("config-file"));
    assertTrue(cm.getData().get("startup-script").contains("exec /dm-master"));

    assertEquals(List.of(), h.dmMutations("basic"), "bring-up only reads from dm-master");
    assertTrue(h.hasEvent("basic", "SuccessfulCreate"));
  }

  @Test
  void aPausedClusterIsLeftAloneAndSaysSo() {
    h.create("paused", """
        version: v8.5.7
        paused: true
        master: {replicas: 1, storageSize: 1Gi}
        """);
    DmCluster dc = h.await("paused", "Ready=False reason Paused", d ->
        DmHarness.condition(d, "Ready").filter(c -> "Paused".equals(c.getReason())).isPresent());
    assertNotNull(dc.getStatus());
    assertEquals(null, h.statefulSet("paused-dm-master"), "nothing is created while paused");
  }
}
