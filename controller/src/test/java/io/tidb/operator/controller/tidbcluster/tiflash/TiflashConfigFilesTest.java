package io.tidb.operator.controller.tidbcluster.tiflash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tidb.operator.api.v1alpha1.cluster.ComponentConfig;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.controller.fixtures.TestClusters;
import org.junit.jupiter.api.Test;

class TiflashConfigFilesTest {

  private static ComponentConfig common(TidbCluster tc) {
    return ComponentConfig.ofToml(TiflashConfigFiles.of(tc).config());
  }

  private static ComponentConfig proxy(TidbCluster tc) {
    return ComponentConfig.ofToml(TiflashConfigFiles.of(tc).proxy());
  }

  private static String text(ComponentConfig c, String key) {
    return c.get(key).orElseThrow(() -> new AssertionError("no " + key)).asText();
  }

  @Test
  void upstreamDefaultsPointTiflashAtItsClusterAndItsPodAddress() {
    TidbCluster tc = TestClusters.load("tiflash");
    ComponentConfig c = common(tc);
    assertEquals("[\"/data0/db\",\"/data1/db\"]", c.get("storage.main.dir").orElseThrow().toString());
    assertEquals("[\"/data0/kvstore\"]", c.get("storage.raft.dir").orElseThrow().toString());
    assertEquals("flash-pd.default.svc:2379", text(c, "raft.pd_addr"));
    assertEquals("flash-tidb.default.svc:10080", text(c, "flash.tidb_status_addr"));
    assertEquals("0.0.0.0:3930", text(c, "flash.service_addr"));
    assertEquals("flash-tiflash-POD_NUM.flash-tiflash-peer.default.svc:20170",
        text(c, "flash.proxy.advertise-addr"));
    assertEquals("/data0/proxy.toml", text(c, "flash.proxy.config"));
    assertEquals("/data0/logs/server.log", text(c, "logger.log"));
    assertEquals("info", text(c, "tici.logger.level"), "the user's settings are kept");
    assertFalse(c.get("tcp_port").isPresent(), "v8.5.7 has no TCP port of its own");

    ComponentConfig p = proxy(tc);
    assertEquals("flash-tiflash-POD_NUM.flash-tiflash-peer.default.svc:3930", text(p, "server.engine-addr"));
    assertEquals("0.0.0.0:20292", text(p, "server.status-addr"));
    assertEquals("info", text(p, "log-level"));
  }

  @Test
  void theUsersValuesWinOverTheDefaults() {
    TidbCluster tc = TestClusters.load("tiflash");
    tc.getSpec().getTiflash().getConfig().setConfig(
        ComponentConfig.ofToml("path = \"/data0/mine\"\n[raft]\npd_addr = \"elsewhere:2379\"\n"));
    tc.getSpec().getTiflash().getConfig().setProxy(ComponentConfig.ofToml("log-level = \"warn\"\n"));
    ComponentConfig c = common(tc);
    assertEquals("elsewhere:2379", text(c, "raft.pd_addr"));
    assertFalse(c.get("storage.main.dir").isPresent(), "a legacy path stops the storage default");
    assertEquals("warn", text(proxy(tc), "log-level"));
  }

  @Test
  void versionsBeforeV710NameTheirPlainPorts() {
    TidbCluster tc = TestClusters.load("tiflash");
    tc.getSpec().getTiflash().setVersion("v6.5.12");
    ComponentConfig c = common(tc);
    assertEquals(9000, c.get("tcp_port").orElseThrow().asInt());
    assertEquals(8123, c.get("http_port").orElseThrow().asInt());
  }

  @Test
  void preferIpv6ListensOnAllIpv6Addresses() {
    TidbCluster tc = TestClusters.load("tiflash");
    tc.getSpec().setPreferIPv6(true);
    ComponentConfig c = common(tc);
    assertEquals("[::]:3930", text(c, "flash.service_addr"));
    assertEquals("::", text(c, "listen_host"));
    assertTrue(c.get("status.metrics_port").isPresent());
  }

  private static TidbCluster heterogeneous(String ref) {
    TidbCluster tc = TestClusters.load("tiflash");
    tc.getSpec().setPd(null);
    tc.getSpec().setTidb(null);
    tc.getSpec().setCluster(io.tidb.operator.api.ApiObjects.parse(ref,
        io.tidb.operator.api.v1alpha1.shared.TidbClusterRef.class));
    return tc;
  }

  @Test
  void aHeterogeneousClusterWithoutPdOrTidbPointsTiflashAtTheReferencedClusters() {
    ComponentConfig c = common(heterogeneous("name: basic"));
    assertEquals("basic-pd.default.svc:2379", text(c, "raft.pd_addr"));
    assertEquals("basic-tidb.default.svc:10080", text(c, "flash.tidb_status_addr"));
    ComponentConfig elsewhere =
        common(heterogeneous("name: basic\nnamespace: tidb\nclusterDomain: cluster1.com"));
    assertEquals("basic-pd.tidb.svc.cluster1.com:2379", text(elsewhere, "raft.pd_addr"));
    assertEquals("basic-tidb.tidb.svc.cluster1.com:10080", text(elsewhere, "flash.tidb_status_addr"));
  }

  @Test
  void aHeterogeneousClusterWithItsOwnPdAndTidbKeepsItsOwn() {
    TidbCluster tc = TestClusters.load("tiflash");
    tc.getSpec().setCluster(io.tidb.operator.api.ApiObjects.parse("name: basic",
        io.tidb.operator.api.v1alpha1.shared.TidbClusterRef.class));
    ComponentConfig c = common(tc);
    assertEquals("flash-pd.default.svc:2379", text(c, "raft.pd_addr"));
    assertEquals("flash-tidb.default.svc:10080", text(c, "flash.tidb_status_addr"));
  }

  @Test
  void acrossKubernetesClustersPdIsLeftToDiscoveryAndTidbIsTheReferencesHeadlessService() {
    TidbCluster tc = heterogeneous("name: basic\nnamespace: tidb\nclusterDomain: cluster1.com");
    tc.getSpec().setAcrossK8s(true);
    ComponentConfig c = common(tc);
    assertEquals("PD_ADDR", text(c, "raft.pd_addr"));
    assertEquals("basic-tidb-peer.tidb.svc.cluster1.com:10080", text(c, "flash.tidb_status_addr"));
    String init = TiflashObjects.statefulSet(tc,
            TiflashObjects.configMap(tc, java.util.Optional.empty()),
            io.tidb.operator.controller.tidbcluster.member.StatefulSetPlan.holding(1)).getSpec().getTemplate().getSpec()
        .getInitContainers().get(0).getCommand().get(2);
    assertTrue(init.contains("/verify/${encoded_pd_url}"), init);
    assertTrue(init.contains("sed -i \"s|PD_ADDR|${result}|g\" /data0/config.toml"), init);
  }
}
