package io.tidb.operator.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.GroupVersionKind;
import io.fabric8.kubernetes.api.model.GroupVersionResource;
import io.tidb.operator.api.validation.cluster.TidbClusterAdmissionRules;
import java.util.List;
import org.junit.jupiter.api.Test;

class AdmissionRulesRegistryTest {

  private final TidbClusterAdmissionRules tidb = new TidbClusterAdmissionRules();
  private final SlowThingRules slow = new SlowThingRules();
  private final AdmissionRulesRegistry registry = new AdmissionRulesRegistry().register(tidb).register(slow);

  @Test
  void findsRulesByGroupVersionResource() {
    assertSame(tidb, registry.find(gvr("pingcap.com", "v1alpha1", "tidbclusters"), null).orElseThrow());
    assertSame(slow, registry.find(gvr("test.tidb.io", "v1", "slowthings"), null).orElseThrow());
  }

  @Test
  void fallsBackToTheKind() {
    assertSame(tidb, registry.find(
        gvr("pingcap.com", "v1alpha1", "unknown"), gvk("pingcap.com", "v1alpha1", "TidbCluster")).orElseThrow());
  }

  @Test
  void otherVersionsAndResourcesAreNotServed() {
    assertTrue(registry.find(gvr("pingcap.com", "v1", "tidbclusters"), gvk("pingcap.com", "v1", "TidbCluster")).isEmpty());
    assertTrue(registry.find(gvr("pingcap.com", "v1alpha1", "dmclusters"), null).isEmpty());
    assertTrue(registry.find(null, null).isEmpty());
  }

  @Test
  void listsWhatIsServed() {
    assertEquals(
        List.of(new AdmissionRulesRegistry.Served("pingcap.com", "v1alpha1", "tidbclusters", "TidbCluster"),
            new AdmissionRulesRegistry.Served("test.tidb.io", "v1", "slowthings", "SlowThing")),
        registry.served());
    assertEquals("[pingcap.com/v1alpha1 tidbclusters, test.tidb.io/v1 slowthings]", registry.served().toString());
  }

  @Test
  void aResourceIsRegisteredOnce() {
    assertEquals("rules for pingcap.com/v1alpha1 tidbclusters are already registered",
        assertThrows(IllegalArgumentException.class, () -> registry.register(new TidbClusterAdmissionRules()))
            .getMessage());
  }

  private static GroupVersionResource gvr(String g, String v, String r) {
    GroupVersionResource gvr = new GroupVersionResource();
    gvr.setGroup(g);
    gvr.setVersion(v);
    gvr.setResource(r);
    return gvr;
  }

  private static GroupVersionKind gvk(String g, String v, String k) {
    GroupVersionKind gvk = new GroupVersionKind();
    gvk.setGroup(g);
    gvk.setVersion(v);
    gvk.setKind(k);
    return gvk;
  }
}
