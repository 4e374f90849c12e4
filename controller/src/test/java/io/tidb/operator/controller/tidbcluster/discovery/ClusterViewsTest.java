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

  private static List<String> sources(ClusterView v) {
    return v.pdSources().stream().map(s -> s.url() + " " + s.host() + " (" + s.what() + ")").toList();
  }

  @Test
  void aJoinedClusterWithItsOwnPdListsMembersFromItsPdThenTheReferencedPdThenEachPeer() {
    ClusterView v = ClusterViews.of(parse("""
        apiVersion: pingcap.com/v1alpha1
        kind: TidbCluster
        metadata: {name: joined, namespace: default, resourceVersion: "1"}
        spec:
          cluster: {name: basic, namespace: tidb}
          pd: {replicas: 2}
          tlsCluster: {enabled: true}
        status:
          pd:
            peerMembers:
              basic-pd-1: {name: basic-pd-1, clientURL: "https://basic-pd-1.basic-pd-peer.tidb.svc:2379"}
              basic-pd-0: {name: basic-pd-0, clientURL: "https://basic-pd-0.basic-pd-peer.tidb.svc:2379"}
              broken: {name: broken, clientURL: "not a url"}
        """));
    assertEquals(List.of(
        "https://joined-pd.default:2379 joined-pd.default (the PD Service joined-pd.default)",
        "https://basic-pd.tidb:2379 basic-pd.tidb (the referenced cluster's PD Service basic-pd.tidb)",
        "https://basic-pd-0.basic-pd-peer.tidb.svc:2379 basic-pd-0.basic-pd-peer.tidb.svc"
            + " (PD member basic-pd-0 of status.pd.peerMembers)",
        "https://basic-pd-1.basic-pd-peer.tidb.svc:2379 basic-pd-1.basic-pd-peer.tidb.svc"
            + " (PD member basic-pd-1 of status.pd.peerMembers)"), sources(v));
  }

  @Test
  void acrossKubernetesClustersTheReferencedPdIsReadThroughItsHeadlessServiceInItsDomain() {
    ClusterView v = ClusterViews.of(parse("""
        apiVersion: pingcap.com/v1alpha1
        kind: TidbCluster
        metadata: {name: cluster2, namespace: pingcap, resourceVersion: "1"}
        spec:
          clusterDomain: cluster2.com
          acrossK8s: true
          cluster: {name: cluster1, namespace: pingcap, clusterDomain: cluster1.com}
          pd: {replicas: 1}
        """));
    assertEquals(List.of(
        "http://cluster2-pd.pingcap.svc.cluster2.com:2379 cluster2-pd.pingcap.svc.cluster2.com"
            + " (the PD Service cluster2-pd.pingcap.svc.cluster2.com)",
        "http://cluster1-pd-peer.pingcap.svc.cluster1.com:2379 cluster1-pd-peer.pingcap.svc.cluster1.com"
            + " (the referenced cluster's PD Service cluster1-pd-peer.pingcap.svc.cluster1.com)"),
        sources(v));
  }

  @Test
  void aPlainClusterAsksOnlyItsOwnPdService() {
    ClusterView v = ClusterViews.of(parse("""
        apiVersion: pingcap.com/v1alpha1
        kind: TidbCluster
        metadata: {name: basic, namespace: default, resourceVersion: "1"}
        spec:
          pd: {replicas: 3}
        """));
    assertEquals(List.of("http://basic-pd.default:2379 basic-pd.default (the PD Service basic-pd.default)"),
        sources(v));
  }
}
