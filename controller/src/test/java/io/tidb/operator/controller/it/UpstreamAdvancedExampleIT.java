package io.tidb.operator.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.testsupport.ClusterAccess;
import io.tidb.operator.testsupport.WithLocalControlPlane;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Upstream's {@code examples/advanced/tidb-cluster.yaml}, as a user applies it (only the namespace
 * is the test's), converges to Ready on the local control plane with what it asks for: a NodePort
 * TiDB Service keeping client addresses, the helper image, 3 members of each component, and each
 * component's TOML config in its ConfigMap.
 */
@WithLocalControlPlane
class UpstreamAdvancedExampleIT {

  private static final String NAME = "advanced-tidb";

  private static ControllerHarness h;

  @BeforeAll
  static void start(ClusterAccess access) {
    h = ControllerHarness.start(access, "advanced-it", Duration.ofSeconds(10));
  }

  @AfterAll
  static void stop() {
    if (h != null) {
      h.close();
    }
  }

  private static String config(String configMapPrefix, String key) {
    return h.admin.configMaps().inNamespace(h.namespace).list().getItems().stream()
        .filter(cm -> cm.getMetadata().getName().startsWith(configMapPrefix))
        .map(ConfigMap::getData).map(d -> d.get(key)).findFirst().orElseThrow();
  }

  @Test
  void theAdvancedExampleComesUpAsWritten() {
    h.create(Fixtures.compat("advanced__tidb-cluster.yaml"));
    TidbCluster tc = h.awaitReady(NAME);

    assertEquals(3, tc.getStatus().getPd().getMembers().size());
    assertEquals(3, tc.getStatus().getTikv().getStores().size());
    assertEquals(3, tc.getStatus().getTidb().getMembers().size());
    Service tidb = h.admin.services().inNamespace(h.namespace).withName(NAME + "-tidb").get();
    assertEquals("NodePort", tidb.getSpec().getType());
    assertEquals("Local", tidb.getSpec().getExternalTrafficPolicy());
    StatefulSet tikv = h.admin.apps().statefulSets().inNamespace(h.namespace)
        .withName(NAME + "-tikv").get();
    assertEquals("100Gi", tikv.getSpec().getVolumeClaimTemplates().get(0).getSpec()
        .getResources().getRequests().get("storage").toString());
    assertTrue(config(NAME + "-pd", "config-file").contains("internal-proxy = true"),
        config(NAME + "-pd", "config-file"));
    assertTrue(config(NAME + "-tidb", "config-file").contains("tcp-keep-alive = true"),
        config(NAME + "-tidb", "config-file"));
    assertTrue(config(NAME + "-tikv", "config-file").contains("max-backups = 30"),
        config(NAME + "-tikv", "config-file"));
  }
}
