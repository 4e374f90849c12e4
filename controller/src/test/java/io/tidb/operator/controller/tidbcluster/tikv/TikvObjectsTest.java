package io.tidb.operator.controller.tidbcluster.tikv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.controller.fixtures.Golden;
import io.tidb.operator.controller.fixtures.TestClusters;
import io.tidb.operator.controller.tidbcluster.member.StatefulSetPlan;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TikvObjectsTest {

  @ParameterizedTest
  @ValueSource(strings = {"basic", "advanced", "full"})
  void matchesGoldenObjects(String name) {
    TidbCluster tc = TestClusters.load(name);
    ConfigMap cm = TikvObjects.configMap(tc, Optional.empty());
    Golden.assertYaml(name + "/tikv-peer-service.yaml", TikvObjects.peerService(tc));
    Golden.assertYaml(name + "/tikv-configmap.yaml", cm);
    Golden.assertYaml(name + "/tikv-statefulset.yaml", TikvObjects.statefulSet(tc, cm, StatefulSetPlan.holding(3)));
  }

  @Test
  void peerServiceServes20160() {
    Service svc = TikvObjects.peerService(TestClusters.load("basic"));
    assertEquals("basic-tikv-peer", svc.getMetadata().getName());
    assertEquals("None", svc.getSpec().getClusterIP());
    assertTrue(svc.getSpec().getPublishNotReadyAddresses());
    assertEquals(20160, svc.getSpec().getPorts().get(0).getPort());
    assertEquals("peer", svc.getSpec().getPorts().get(0).getName());
  }

  @Test
  void configFileKeepsUserConfigFromAMapOrATomlString() {
    var basic = toml(TestClusters.load("basic"));
    assertEquals(256, basic.get("rocksdb").get("max-open-files").asInt());
    assertEquals("0MB", basic.get("storage").get("reserve-space").asText());
    var advanced = toml(TestClusters.load("advanced"));
    assertEquals(30, advanced.get("log").get("file").get("max-days").asInt());
    var full = toml(TestClusters.load("full"));
    assertEquals("/var/lib/tikv-tls/ca.crt", full.get("security").get("ca-path").asText());
    assertEquals("/var/lib/tikv-tls/tls.crt", full.get("security").get("cert-path").asText());
    assertEquals("/var/lib/tikv-tls/tls.key", full.get("security").get("key-path").asText());
  }

  private static com.fasterxml.jackson.databind.node.ObjectNode toml(TidbCluster tc) {
    return io.tidb.operator.api.config.TomlConfig.parse(
        TikvObjects.configMap(tc, Optional.empty()).getData().get("config-file"));
  }

  @Test
  void statefulSetUsesPeerServiceAndDataClaim() {
    TidbCluster tc = TestClusters.load("advanced");
    StatefulSet set = TikvObjects.statefulSet(tc, TikvObjects.configMap(tc, Optional.empty()), new StatefulSetPlan(3, 1));
    assertEquals("advanced-tidb-tikv", set.getMetadata().getName());
    assertEquals("advanced-tidb-tikv-peer", set.getSpec().getServiceName());
    assertEquals(1, set.getSpec().getUpdateStrategy().getRollingUpdate().getPartition());
    assertEquals("tikv", set.getSpec().getVolumeClaimTemplates().get(0).getMetadata().getName());
    assertEquals(new Quantity("100Gi"),
        set.getSpec().getVolumeClaimTemplates().get(0).getSpec().getResources().getRequests().get("storage"));
    Container tikv = set.getSpec().getTemplate().getSpec().getContainers().get(0);
    assertEquals("pingcap/tikv:v8.5.7", tikv.getImage());
    assertEquals(List.of("/bin/sh", "/usr/local/bin/tikv_start_script.sh"), tikv.getCommand());
    assertEquals("0", env(tikv, "CAPACITY"), "no storage limit: TiKV uses the whole disk");
    assertEquals("advanced-tidb", env(tikv, "CLUSTER_NAME"));
    assertEquals("advanced-tidb-tikv-peer", env(tikv, "HEADLESS_SERVICE_NAME"));
    assertNull(tikv.getReadinessProbe());
    assertEquals("20180", set.getSpec().getTemplate().getMetadata().getAnnotations().get("prometheus.io/port"));
  }

  @Test
  void capacityComesFromTheStorageLimit() {
    assertEquals("0", TikvObjects.capacity(null));
    assertEquals("100GB", TikvObjects.capacity(new Quantity("100Gi")));
    assertEquals("1536MB", TikvObjects.capacity(new Quantity("1536Mi")));
    assertEquals("953MB", TikvObjects.capacity(new Quantity("1G")), "1e9 bytes is 953 whole MiB");
    TidbCluster tc = TestClusters.load("full");
    Container tikv = TikvObjects.statefulSet(tc, TikvObjects.configMap(tc, Optional.empty()), StatefulSetPlan.holding(3))
        .getSpec().getTemplate().getSpec().getContainers().stream()
        .filter(c -> c.getName().equals("tikv")).findFirst().orElseThrow();
    assertEquals("1536MB", env(tikv, "CAPACITY"));
  }

  @Test
  void logTailersFollowRocksDbAndRaftLogs() {
    TidbCluster tc = TestClusters.load("full");
    StatefulSet set = TikvObjects.statefulSet(tc, TikvObjects.configMap(tc, Optional.empty()), StatefulSetPlan.holding(3));
    List<Container> containers = set.getSpec().getTemplate().getSpec().getContainers();
    assertEquals(List.of("rocksdblog", "raftlog", "tikv"),
        containers.stream().map(Container::getName).collect(Collectors.toList()));
    Container rocks = containers.get(0);
    assertEquals("alpine:3.16.0", rocks.getImage(), "the helper image");
    assertEquals("/var/lib/tikv", rocks.getVolumeMounts().get(0).getMountPath());
    assertTrue(rocks.getCommand().get(2).contains("/var/lib/tikv/rocksdb.info"));
    Container raft = containers.get(1);
    assertEquals("tikv-raft", raft.getVolumeMounts().get(0).getName());
    assertTrue(raft.getCommand().get(2).contains("/var/lib/raft/raftdb.info"));
  }

  @Test
  void unknownLogVolumeNamesTheField() {
    TidbCluster tc = TestClusters.load("full");
    tc.getSpec().getTikv().setRaftLogVolumeName("nope");
    ConfigMap cm = TikvObjects.configMap(tc, Optional.empty());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> TikvObjects.statefulSet(tc, cm, StatefulSetPlan.holding(3)));
    assertTrue(e.getMessage().startsWith("spec.tikv.raftLogVolumeName: Invalid value: \"nope\""), e.getMessage());
  }

  @Test
  void namedStatusPortAndPrivilegeAreOptIn() {
    TidbCluster basic = TestClusters.load("basic");
    Container plain = TikvObjects.statefulSet(basic, TikvObjects.configMap(basic, Optional.empty()), StatefulSetPlan.holding(1))
        .getSpec().getTemplate().getSpec().getContainers().get(0);
    assertEquals(1, plain.getPorts().size());
    assertNull(plain.getSecurityContext());
    TidbCluster full = TestClusters.load("full");
    Container named = TikvObjects.statefulSet(full, TikvObjects.configMap(full, Optional.empty()), StatefulSetPlan.holding(3))
        .getSpec().getTemplate().getSpec().getContainers().get(2);
    assertEquals("status", named.getPorts().get(1).getName());
    assertEquals(20180, named.getPorts().get(1).getContainerPort());
    assertFalse(named.getSecurityContext().getPrivileged());
  }

  @Test
  void tolerationsOfTheComponentReplaceTheClusterOnes() {
    TidbCluster tc = TestClusters.load("full");
    var podSpec = TikvObjects.statefulSet(tc, TikvObjects.configMap(tc, Optional.empty()), StatefulSetPlan.holding(3))
        .getSpec().getTemplate().getSpec();
    assertEquals(List.of("tikv"), podSpec.getTolerations().stream().map(t -> t.getKey()).collect(Collectors.toList()));
    assertEquals("cluster-priority", podSpec.getPriorityClassName());
  }

  private static String env(Container c, String name) {
    return c.getEnv().stream().filter(e -> e.getName().equals(name)).findFirst().orElseThrow().getValue();
  }
}
