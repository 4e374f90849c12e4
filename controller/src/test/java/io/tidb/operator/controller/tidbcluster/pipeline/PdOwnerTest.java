package io.tidb.operator.controller.tidbcluster.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import org.junit.jupiter.api.Test;

class PdOwnerTest {

  private static TidbCluster tc(String spec) {
    TidbCluster tc = ApiObjects.parse("""
        apiVersion: pingcap.com/v1alpha1
        kind: TidbCluster
        metadata: {name: second, namespace: ns2}
        spec:
        """ + spec.indent(2), TidbCluster.class);
    return tc;
  }

  @Test
  void aClusterWithItsOwnPdUsesIt() {
    PdOwner own = PdOwner.of(tc("pd: {replicas: 1}\nclusterDomain: east.local\n"));
    assertEquals(new PdOwner("second", "ns2", "east.local", false), own);
    assertEquals("second-pd:2379", own.clientAddress("ns2"));
  }

  @Test
  void aHeterogeneousClusterWithItsOwnPdStillReadsItsOwn() {
    assertEquals(new PdOwner("second", "ns2", "", false),
        PdOwner.of(tc("cluster: {name: first}\npd: {replicas: 1}\n")));
  }

  @Test
  void withoutPdTheReferencedClusterIsTheOwnerWithTheNamespaceDefaulted() {
    PdOwner ref = PdOwner.of(tc("cluster: {name: first}\ntikv: {replicas: 1}\n"));
    assertEquals(new PdOwner("first", "ns2", "", true), ref);
    assertEquals("first-pd:2379", ref.clientAddress("ns2"));
  }

  @Test
  void anotherNamespaceAndDomainAreTheReferencesOwn() {
    PdOwner ref = PdOwner.of(tc(
        "clusterDomain: west.local\ncluster: {name: first, namespace: ns1, clusterDomain: east.local}\n"));
    assertEquals(new PdOwner("first", "ns1", "east.local", true), ref);
    assertEquals("first-pd.ns1:2379", ref.clientAddress("ns2"));
    assertEquals(new PdOwner("first", "ns1", "west.local", true),
        PdOwner.of(tc("clusterDomain: west.local\ncluster: {name: first, namespace: ns1}\n")));
  }

  @Test
  void onlyAReferencedPdAcrossKubernetesClustersIsReadThroughItsPeerService() {
    assertEquals(true, PdOwner.readsPeerService(
        tc("acrossK8s: true\ncluster: {name: first, namespace: ns1}\ntikv: {replicas: 1}\n")));
    assertEquals(false, PdOwner.readsPeerService(
        tc("cluster: {name: first, namespace: ns1}\ntikv: {replicas: 1}\n")));
    assertEquals(false, PdOwner.readsPeerService(
        tc("acrossK8s: true\ncluster: {name: first}\npd: {replicas: 1}\n")));
    assertEquals(false, PdOwner.readsPeerService(tc("acrossK8s: true\npd: {replicas: 1}\n")));
  }
}
