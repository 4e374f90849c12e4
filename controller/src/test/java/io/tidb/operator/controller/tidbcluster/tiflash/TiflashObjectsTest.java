package io.tidb.operator.controller.tidbcluster.tiflash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.tidb.operator.api.v1alpha1.cluster.LogTailerSpec;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.controller.tidbcluster.member.StartScriptVersion;
import io.tidb.operator.controller.fixtures.Golden;
import io.tidb.operator.controller.fixtures.TestClusters;
import io.tidb.operator.controller.tidbcluster.member.StatefulSetPlan;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TiflashObjectsTest {

  private static TidbCluster flash() {
    return TestClusters.load("tiflash");
  }

  @Test
  void matchesGoldenObjects() {
    TidbCluster tc = flash();
    ConfigMap cm = TiflashObjects.configMap(tc, Optional.empty());
    Golden.assertYaml("tiflash/tiflash-peer-service.yaml", TiflashObjects.peerService(tc));
    Golden.assertYaml("tiflash/tiflash-configmap.yaml", cm);
    Golden.assertYaml("tiflash/tiflash-statefulset.yaml",
        TiflashObjects.statefulSet(tc, cm, StatefulSetPlan.holding(1)));
  }

  @Test
  void oneClaimPerStorageClaimMountedAtDataN() {
    TidbCluster tc = flash();
    StatefulSet sts = TiflashObjects.statefulSet(tc, TiflashObjects.configMap(tc, Optional.empty()),
        StatefulSetPlan.holding(1));
    List<PersistentVolumeClaim> claims = sts.getSpec().getVolumeClaimTemplates();
    assertEquals(List.of("data0", "data1"), claims.stream().map(c -> c.getMetadata().getName()).toList());
    assertEquals("100Gi", claims.get(0).getSpec().getResources().getRequests().get("storage").toString());
    assertEquals("fast", claims.get(1).getSpec().getStorageClassName());
    Container main = container(sts, "tiflash");
    assertTrue(main.getVolumeMounts().stream()
        .anyMatch(m -> m.getName().equals("data1") && m.getMountPath().equals("/data1")));
  }

  @Test
  void theInitContainerRendersTheConfigIntoData0AndTheLogsAreTailed() {
    TidbCluster tc = flash();
    StatefulSet sts = TiflashObjects.statefulSet(tc, TiflashObjects.configMap(tc, Optional.empty()),
        StatefulSetPlan.holding(1));
    Container init = sts.getSpec().getTemplate().getSpec().getInitContainers().get(0);
    assertEquals("init", init.getName());
    assertEquals("alpine:3.16.0", init.getImage(), "the helper image");
    assertEquals(List.of("sh", "-c", TiflashScripts.init(StartScriptVersion.of(tc), Optional.empty())), init.getCommand());
    assertEquals(List.of("tiflash", "serverlog", "errorlog", "clusterlog"),
        sts.getSpec().getTemplate().getSpec().getContainers().stream().map(Container::getName).toList());
    assertEquals("touch /data0/logs/error.log; tail -n0 -F /data0/logs/error.log;",
        container(sts, "errorlog").getCommand().get(2));
  }

  @Test
  void nativeSidecarTailersGoAfterTheInitContainer() {
    TidbCluster tc = flash();
    LogTailerSpec tailer = new LogTailerSpec();
    tailer.setUseSidecar(true);
    tc.getSpec().getTiflash().setLogTailer(tailer);
    StatefulSet sts = TiflashObjects.statefulSet(tc, TiflashObjects.configMap(tc, Optional.empty()),
        StatefulSetPlan.holding(1));
    assertEquals(List.of("init", "serverlog", "errorlog", "clusterlog"),
        sts.getSpec().getTemplate().getSpec().getInitContainers().stream().map(Container::getName).toList());
    assertEquals(List.of("tiflash"),
        sts.getSpec().getTemplate().getSpec().getContainers().stream().map(Container::getName).toList());
  }

  @Test
  void noStorageClaimIsRefusedNamingTheField() {
    TidbCluster tc = flash();
    tc.getSpec().getTiflash().setStorageClaims(List.of());
    ConfigMap cm = TiflashObjects.configMap(tc, Optional.empty());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> TiflashObjects.statefulSet(tc, cm, StatefulSetPlan.holding(1)));
    assertTrue(e.getMessage().startsWith("spec.tiflash.storageClaims: Required value"), e.getMessage());
  }

  @Test
  void theConfigMapNameFollowsTheContentUnderRollingUpdate() {
    TidbCluster tc = flash();
    String before = TiflashObjects.configMap(tc, Optional.empty()).getMetadata().getName();
    assertTrue(before.startsWith("flash-tiflash-"), before);
    tc.getSpec().getTiflash().getConfig().setProxy(
        io.tidb.operator.api.v1alpha1.cluster.ComponentConfig.ofToml("log-level = \"debug\"\n"));
    String after = TiflashObjects.configMap(tc, Optional.empty()).getMetadata().getName();
    assertFalse(before.equals(after), "a config change gives a new ConfigMap, so the pods roll");
  }

  private static Container container(StatefulSet sts, String name) {
    return sts.getSpec().getTemplate().getSpec().getContainers().stream()
        .filter(c -> name.equals(c.getName())).findFirst().orElseThrow();
  }
}
