package io.tidb.operator.controller.desired;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.tidb.operator.api.v1alpha1.TidbCluster;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class StatefulSetUpdatesTest {
  @Test
  void immutableFieldsComeFromTheExistingSetAndEverythingElseFromTheDesiredOne() {
    TidbCluster before = TestClusters.load("basic");
    StatefulSet existing = PdObjects.statefulSet(before, PdObjects.configMap(before, Optional.empty()), StatefulSetPlan.holding(1));

    TidbCluster after = TestClusters.load("basic");
    after.getSpec().getPd().setRequests(Map.of("storage", new Quantity("5Gi")));
    after.getSpec().setPodManagementPolicy("OrderedReady");
    after.getSpec().getPd().setVersion("v8.5.8");
    StatefulSet desired = PdObjects.statefulSet(after, PdObjects.configMap(after, Optional.empty()), new StatefulSetPlan(3, 3));

    StatefulSet merged = StatefulSetUpdates.keepingImmutableFields(desired, existing);
    assertEquals(existing.getSpec().getVolumeClaimTemplates(), merged.getSpec().getVolumeClaimTemplates());
    assertEquals("Parallel", merged.getSpec().getPodManagementPolicy());
    assertEquals(existing.getSpec().getSelector(), merged.getSpec().getSelector());
    assertEquals(existing.getSpec().getServiceName(), merged.getSpec().getServiceName());
    assertEquals(3, merged.getSpec().getReplicas());
    assertEquals(3, merged.getSpec().getUpdateStrategy().getRollingUpdate().getPartition());
    assertEquals("pingcap/pd:v8.5.8", merged.getSpec().getTemplate().getSpec().getContainers().get(0).getImage());
  }

  @Test
  void withoutAnExistingSetTheDesiredOneIsUsedAsIs() {
    TidbCluster tc = TestClusters.load("basic");
    StatefulSet desired = PdObjects.statefulSet(tc, PdObjects.configMap(tc, Optional.empty()), StatefulSetPlan.holding(1));
    assertSame(desired, StatefulSetUpdates.keepingImmutableFields(desired, null));
  }

  @Test
  void preferIpv6AsksForDualStackServices() {
    TidbCluster tc = TestClusters.load("basic");
    tc.getSpec().setPreferIPv6(true);
    assertEquals("PreferDualStack", PdObjects.clientService(tc).getSpec().getIpFamilyPolicy());
    assertEquals("PreferDualStack", TikvObjects.peerService(tc).getSpec().getIpFamilyPolicy());
    assertEquals("PreferDualStack", TidbObjects.clientService(tc).orElseThrow().getSpec().getIpFamilyPolicy());
    assertEquals("PreferDualStack", DiscoveryObjects.service(tc).getSpec().getIpFamilyPolicy());
    assertEquals(null, PdObjects.clientService(TestClusters.load("basic")).getSpec().getIpFamilyPolicy());
    assertEquals(true, TikvObjects.startScript(tc).render().contains("--addr=[::]:20160"));
  }
}
