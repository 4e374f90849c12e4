package io.tidb.operator.controller.tidbcluster.discovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import java.util.List;
import org.junit.jupiter.api.Test;

class ClusterViewsTest {
  private static TidbCluster parse(String yaml) {
    return ApiObjects.parse(yaml, TidbCluster.class);
  }

  @Test
  void desiredReplicasCountDeletedFailureMembersAndSpares() {
    TidbCluster tc = parse("""
        apiVersion: pingcap.com/v1alpha1
        kind: TidbCluster
        metadata: {name: basic, namespace: default, resourceVersion: "42"}
        spec:
          pd: {replicas: 3}
          pdAddresses: ["http://x:2379"]
          tlsCluster: {enabled: true}
        status:
          pd:
            volReplaceInProgress: true
            failureMembers:
              basic-pd-0: {podName: basic-pd-0, memberDeleted: true}
              basic-pd-1: {podName: basic-pd-1, memberDeleted: false}
            peerMembers:
              a-pd-0: {name: a-pd-0, clientURL: "http://a-pd-0:2379", health: true}
        """);
    ClusterView v = ClusterViews.of(tc);
    assertEquals(5, v.desiredPdReplicas(), "3 + 1 deleted failure member + 1 spare");
    assertEquals("42", v.resourceVersion());
    assertEquals("https", v.scheme());
    assertEquals(List.of("http://x:2379"), v.pdAddresses());
    assertEquals(List.of(new ClusterView.PeerMember("a-pd-0", "http://a-pd-0:2379", true)), v.peerMembers());
    assertFalse(v.joinsOtherCluster());
  }

  @Test
  void aClusterWithoutStatusOrPdStillHasAView() {
    ClusterView v = ClusterViews.of(parse("""
        apiVersion: pingcap.com/v1alpha1
        kind: TidbCluster
        metadata: {name: het, namespace: default, resourceVersion: "1"}
        spec:
          cluster: {name: basic}
          tikv: {replicas: 1}
        """));
    assertEquals(0, v.desiredPdReplicas());
    assertEquals("http", v.scheme());
    assertTrue(v.joinsOtherCluster());
    assertEquals("basic-pd-peer.default.svc", v.referencedPdPeer());
  }

  @Test
  void theReferencedPdIsInItsNamespaceAndClusterDomain() {
    ClusterView v = ClusterViews.of(parse("""
        apiVersion: pingcap.com/v1alpha1
        kind: TidbCluster
        metadata: {name: het, namespace: default, resourceVersion: "1"}
        spec:
          cluster: {name: basic, namespace: tidb, clusterDomain: cluster1.com}
          tikv: {replicas: 1}
        """));
    assertEquals("basic-pd-peer.tidb.svc.cluster1.com", v.referencedPdPeer());
    ClusterView withPd = ClusterViews.of(parse("""
        apiVersion: pingcap.com/v1alpha1
        kind: TidbCluster
        metadata: {name: het, namespace: default, resourceVersion: "1"}
        spec:
          cluster: {name: basic}
          pd: {replicas: 1}
        """));
    assertEquals("", withPd.referencedPdPeer(), "its own PD joins the other's; /verify/ answers as usual");
  }
}
