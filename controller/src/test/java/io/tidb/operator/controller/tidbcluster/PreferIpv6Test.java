package io.tidb.operator.controller.tidbcluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.controller.fixtures.TestClusters;
import io.tidb.operator.controller.tidbcluster.discovery.DiscoveryObjects;
import io.tidb.operator.controller.tidbcluster.pd.PdObjects;
import io.tidb.operator.controller.tidbcluster.tidb.TidbObjects;
import io.tidb.operator.controller.tidbcluster.tikv.TikvObjects;
import org.junit.jupiter.api.Test;

class PreferIpv6Test {
  @Test
  void preferIpv6AsksForDualStackServices() {
    TidbCluster tc = TestClusters.load("basic");
    tc.getSpec().setPreferIPv6(true);
    assertEquals("PreferDualStack", PdObjects.clientService(tc).getSpec().getIpFamilyPolicy());
    assertEquals("PreferDualStack", TikvObjects.peerService(tc).getSpec().getIpFamilyPolicy());
    assertEquals("PreferDualStack", TidbObjects.clientService(tc).orElseThrow().getSpec().getIpFamilyPolicy());
    assertEquals("PreferDualStack", DiscoveryObjects.service(tc).getSpec().getIpFamilyPolicy());
    assertNull(PdObjects.clientService(TestClusters.load("basic")).getSpec().getIpFamilyPolicy());
    assertTrue(TikvObjects.startScript(tc).render().contains("--addr=[::]:20160"));
  }
}
