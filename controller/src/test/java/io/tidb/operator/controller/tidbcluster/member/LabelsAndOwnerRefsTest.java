package io.tidb.operator.controller.tidbcluster.member;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.controller.fixtures.TestClusters;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterAddresses;
import io.tidb.operator.controller.tidbcluster.tidb.TidbObjects;
import io.tidb.operator.controller.tidbcluster.tikv.TikvObjects;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LabelsAndOwnerRefsTest {
  @Test
  void componentLabelsAreUpstreams() {
    assertEquals(Map.of(
        "app.kubernetes.io/name", "tidb-cluster",
        "app.kubernetes.io/instance", "demo",
        "app.kubernetes.io/component", "tikv",
        "app.kubernetes.io/managed-by", "tidb-operator"), Labels.component("demo", TikvObjects.COMPONENT));
    assertEquals("peer", Labels.peerService("demo", ClusterAddresses.PD).get(Labels.USED_BY));
    assertEquals("end-user", Labels.clientService("demo", ClusterAddresses.PD).get(Labels.USED_BY));
  }

  @Test
  void instanceIsTheClustersInstanceLabelElseItsName() {
    assertEquals("basic", Labels.instanceOf(TestClusters.load("basic")));
    assertEquals("full-release", Labels.instanceOf(TestClusters.load("full")));
  }

  @Test
  void ownerReferenceControlsAndBlocksDeletion() {
    TidbCluster tc = TestClusters.load("basic");
    var ref = OwnerRefs.controllerRef(tc);
    assertEquals("pingcap.com/v1alpha1", ref.getApiVersion());
    assertEquals("TidbCluster", ref.getKind());
    assertEquals("basic", ref.getName());
    assertEquals(tc.getMetadata().getUid(), ref.getUid());
    assertTrue(ref.getController());
    assertTrue(ref.getBlockOwnerDeletion());
  }

  @Test
  void ownerReferenceNeedsAStoredCluster() {
    TidbCluster tc = TestClusters.load("basic");
    tc.getMetadata().setUid(null);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> OwnerRefs.controllerRef(tc));
    assertTrue(e.getMessage().contains("metadata.uid"), e.getMessage());
  }

  @Test
  void namesFollowUpstream() {
    assertEquals("demo-pd", Names.member("demo", ClusterAddresses.PD));
    assertEquals("demo-tikv-peer", Names.peerService("demo", TikvObjects.COMPONENT));
    assertEquals("demo-discovery", ClusterAddresses.discoveryName("demo"));
    assertEquals("demo-tidb-2", Names.pod("demo", TidbObjects.COMPONENT, 2));
    assertEquals("demo-pd-0.demo-pd-peer.ns.svc", Names.podHost("demo-pd-0", "demo-pd-peer", "ns", ""));
    assertEquals("demo-pd-0.demo-pd-peer.ns.svc.cluster.local",
        Names.podHost("demo-pd-0", "demo-pd-peer", "ns", "cluster.local"));
  }
}
