package io.tidb.operator.controller.tidbcluster.tidb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
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

class TidbObjectsTest {

  @ParameterizedTest
  @ValueSource(strings = {"basic", "advanced", "full"})
  void matchesGoldenObjects(String name) {
    TidbCluster tc = TestClusters.load(name);
    ConfigMap cm = TidbObjects.configMap(tc, Optional.empty());
    Golden.assertYaml(name + "/tidb-service.yaml", TidbObjects.clientService(tc).orElseThrow());
    Golden.assertYaml(name + "/tidb-peer-service.yaml", TidbObjects.peerService(tc));
    Golden.assertYaml(name + "/tidb-configmap.yaml", cm);
    Golden.assertYaml(name + "/tidb-statefulset.yaml", TidbObjects.statefulSet(tc, cm, StatefulSetPlan.holding(2)));
  }

  @Test
  void clientServiceServesMysqlAndStatus() {
    Service svc = TidbObjects.clientService(TestClusters.load("basic")).orElseThrow();
    assertEquals("basic-tidb", svc.getMetadata().getName());
    assertEquals("ClusterIP", svc.getSpec().getType());
    List<ServicePort> ports = svc.getSpec().getPorts();
    assertEquals(List.of("mysql-client", "status"), ports.stream().map(ServicePort::getName).collect(Collectors.toList()));
    assertEquals(4000, ports.get(0).getPort());
    assertEquals(10080, ports.get(1).getPort());
    assertNull(ports.get(0).getNodePort());
  }

  @Test
  void noClientServiceWithoutServiceSpec() {
    TidbCluster tc = TestClusters.load("basic");
    tc.getSpec().getTidb().setService(null);
    assertTrue(TidbObjects.clientService(tc).isEmpty());
  }

  @Test
  void clientServiceHonorsOverrides() {
    Service svc = TidbObjects.clientService(TestClusters.load("full")).orElseThrow();
    assertEquals("LoadBalancer", svc.getSpec().getType());
    assertEquals("Local", svc.getSpec().getExternalTrafficPolicy());
    assertEquals(List.of("10.0.0.0/8"), svc.getSpec().getLoadBalancerSourceRanges());
    List<ServicePort> ports = svc.getSpec().getPorts();
    assertEquals(List.of("mysql-client", "extra"), ports.stream().map(ServicePort::getName).collect(Collectors.toList()),
        "exposeStatus: false drops the status port");
    assertEquals(3306, ports.get(0).getPort());
    assertEquals(4000, ports.get(0).getTargetPort().getIntVal());
    assertEquals(30306, ports.get(0).getNodePort());
    assertEquals("Local", TidbObjects.clientService(TestClusters.load("advanced")).orElseThrow()
        .getSpec().getExternalTrafficPolicy());
  }

  @Test
  void peerServiceServesStatus() {
    Service svc = TidbObjects.peerService(TestClusters.load("basic"));
    assertEquals("basic-tidb-peer", svc.getMetadata().getName());
    assertEquals("None", svc.getSpec().getClusterIP());
    assertTrue(svc.getSpec().getPublishNotReadyAddresses());
    assertEquals(10080, svc.getSpec().getPorts().get(0).getPort());
  }

  @Test
  void statefulSetHasReadinessProbeSlowLogTailerAndNoDataClaim() {
    TidbCluster tc = TestClusters.load("basic");
    StatefulSet set = TidbObjects.statefulSet(tc, TidbObjects.configMap(tc, Optional.empty()), new StatefulSetPlan(2, 0));
    assertTrue(set.getSpec().getVolumeClaimTemplates().isEmpty());
    assertEquals(0, set.getSpec().getUpdateStrategy().getRollingUpdate().getPartition());
    List<Container> containers = set.getSpec().getTemplate().getSpec().getContainers();
    assertEquals(List.of("slowlog", "tidb"), containers.stream().map(Container::getName).collect(Collectors.toList()));
    Container tidb = containers.get(1);
    assertEquals(4000, tidb.getReadinessProbe().getTcpSocket().getPort().getIntVal());
    assertEquals("/var/log/tidb/slowlog", env(tidb, "SLOW_LOG_FILE"));
    assertEquals("false", env(tidb, "BINLOG_ENABLED"));
    assertEquals("metadata.name", tidb.getEnv().stream().filter(e -> e.getName().equals("POD_NAME"))
        .findFirst().orElseThrow().getValueFrom().getFieldRef().getFieldPath());
    assertEquals("alpine:3.16.0", containers.get(0).getImage());
    assertTrue(set.getSpec().getTemplate().getSpec().getVolumes().stream()
        .anyMatch(v -> v.getName().equals("slowlog") && v.getEmptyDir() != null));
  }

  @Test
  void slowLogTailerCanBeANativeSidecarOrOff() {
    TidbCluster full = TestClusters.load("full");
    var podSpec = TidbObjects.statefulSet(full, TidbObjects.configMap(full, Optional.empty()), StatefulSetPlan.holding(2))
        .getSpec().getTemplate().getSpec();
    assertEquals("slowlog", podSpec.getInitContainers().get(0).getName());
    assertEquals("Always", podSpec.getInitContainers().get(0).getRestartPolicy());
    assertEquals(List.of("tidb"), podSpec.getContainers().stream().map(Container::getName).collect(Collectors.toList()));

    TidbCluster off = TestClusters.load("basic");
    off.getSpec().getTidb().setSeparateSlowLog(false);
    StatefulSet set = TidbObjects.statefulSet(off, TidbObjects.configMap(off, Optional.empty()), StatefulSetPlan.holding(1));
    Container tidb = set.getSpec().getTemplate().getSpec().getContainers().get(0);
    assertEquals(1, set.getSpec().getTemplate().getSpec().getContainers().size());
    assertEquals("", env(tidb, "SLOW_LOG_FILE"));
  }

  @Test
  void commandProbeCurlsTheStatusPortWithClusterCerts() {
    TidbCluster tc = TestClusters.load("full");
    Container tidb = TidbObjects.statefulSet(tc, TidbObjects.configMap(tc, Optional.empty()), StatefulSetPlan.holding(2))
        .getSpec().getTemplate().getSpec().getContainers().get(0);
    assertEquals(List.of("curl", "https://127.0.0.1:10080/status", "--fail", "--location", "--cacert",
        "/var/lib/tidb-tls/ca.crt", "--cert", "/var/lib/tidb-tls/tls.crt", "--key", "/var/lib/tidb-tls/tls.key"),
        tidb.getReadinessProbe().getExec().getCommand());
    assertEquals(7, tidb.getReadinessProbe().getPeriodSeconds());
  }

  @Test
  void configForcesClusterAndClientTlsPaths() {
    var security = toml(TestClusters.load("full")).get("security");
    assertEquals("/var/lib/tidb-tls/ca.crt", security.get("cluster-ssl-ca").asText());
    assertEquals("/var/lib/tidb-tls/tls.crt", security.get("cluster-ssl-cert").asText());
    assertEquals("/var/lib/tidb-tls/tls.key", security.get("cluster-ssl-key").asText());
    assertEquals("/var/lib/tidb-server-tls/ca.crt", security.get("ssl-ca").asText());
    assertEquals("/var/lib/tidb-server-tls/tls.crt", security.get("ssl-cert").asText());
    assertEquals("/var/lib/tidb-server-tls/tls.key", security.get("ssl-key").asText());
    var advanced = toml(TestClusters.load("advanced"));
    assertTrue(advanced.get("performance").get("tcp-keep-alive").asBoolean());
    assertNull(advanced.get("security"));
  }

  @Test
  void clientAuthnCanBeDisabled() {
    TidbCluster tc = TestClusters.load("full");
    tc.getSpec().getTidb().getTlsClient().setDisableClientAuthn(true);
    var security = toml(tc).get("security");
    assertNull(security.get("ssl-ca"));
    assertEquals("/var/lib/tidb-server-tls/tls.crt", security.get("ssl-cert").asText());
  }

  private static com.fasterxml.jackson.databind.node.ObjectNode toml(TidbCluster tc) {
    return io.tidb.operator.api.config.TomlConfig.parse(
        TidbObjects.configMap(tc, Optional.empty()).getData().get("config-file"));
  }

  @Test
  void binlogDefaultsToWhetherPumpExists() {
    TidbCluster tc = TestClusters.load("basic");
    assertFalse(TidbObjects.binlogEnabled(tc));
    tc.getSpec().setPump(new io.tidb.operator.api.v1alpha1.cluster.PumpSpec());
    assertTrue(TidbObjects.binlogEnabled(tc));
    assertTrue(TidbObjects.startScript(tc).render().contains("--enable-binlog=true"));
    tc.getSpec().getTidb().setBinlogEnabled(false);
    assertFalse(TidbObjects.binlogEnabled(tc));
  }

  private static String env(Container c, String name) {
    return c.getEnv().stream().filter(e -> e.getName().equals(name)).findFirst().orElseThrow().getValue();
  }
}
