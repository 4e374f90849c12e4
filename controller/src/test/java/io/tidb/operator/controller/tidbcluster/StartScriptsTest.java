package io.tidb.operator.controller.tidbcluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.controller.fixtures.Golden;
import io.tidb.operator.controller.fixtures.ScriptRunner;
import io.tidb.operator.controller.fixtures.TestClusters;
import io.tidb.operator.controller.tidbcluster.pd.PdObjects;
import io.tidb.operator.controller.tidbcluster.tidb.TidbObjects;
import io.tidb.operator.controller.tidbcluster.tikv.TikvObjects;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StartScriptsTest {
  @TempDir Path tmp;

  @Test
  void scriptsMatchTheirSnapshots() {
    TidbCluster basic = TestClusters.load("basic");
    Golden.assertText("basic/pd_start_script.sh", PdObjects.startScript(basic).render());
    Golden.assertText("basic/tikv_start_script.sh", TikvObjects.startScript(basic).render());
    Golden.assertText("basic/tidb_start_script.sh", TidbObjects.startScript(basic).render());
  }

  @Test
  void pdScriptHasUpstreamFlags() {
    String s = PdObjects.startScript(TestClusters.load("basic")).render();
    assertTrue(s.contains("PD_DOMAIN=${POD_NAME}.basic-pd-peer.default.svc\n"), s);
    for (String flag : List.of("--data-dir=/var/lib/pd ", "--name=${POD_NAME} ", "--peer-urls=http://0.0.0.0:2380 ",
        "--advertise-peer-urls=http://${PD_DOMAIN}:2380 ", "--client-urls=http://0.0.0.0:2379 ",
        "--advertise-client-urls=http://${PD_DOMAIN}:2379 ", "--config=/etc/pd/pd.toml")) {
      assertTrue(s.contains(flag), flag);
    }
    assertTrue(s.contains("http://basic-discovery.default:10261/new/${encoded}"), s);
    assertTrue(s.contains("exec /pd-server ${ARGS}"), s);
  }

  @Test
  void tikvScriptHasUpstreamFlags() {
    TidbCluster tc = TestClusters.load("basic");
    String s = TikvObjects.startScript(tc).render();
    for (String flag : List.of("--pd=basic-pd:2379 ", "--advertise-addr=${POD_NAME}.basic-tikv-peer.default.svc:20160 ",
        "--addr=0.0.0.0:20160 ", "--status-addr=0.0.0.0:20180 ",
        "--advertise-status-addr=${POD_NAME}.basic-tikv-peer.default.svc:20180 ",
        "--data-dir=/var/lib/tikv ", "--capacity=${CAPACITY} ", "--config=/etc/tikv/tikv.toml")) {
      assertTrue(s.contains(flag), flag);
    }
    tc.getSpec().setEnableDynamicConfiguration(false);
    assertFalse(TikvObjects.startScript(tc).render().contains("--advertise-status-addr"));
  }

  @Test
  void tidbScriptHasUpstreamFlags() {
    String s = TidbObjects.startScript(TestClusters.load("basic")).render();
    for (String flag : List.of("--store=tikv ", "--advertise-address=${POD_NAME}.basic-tidb-peer.default.svc ",
        "--host=0.0.0.0 ", "--path=basic-pd:2379 ", "--config=/etc/tidb/tidb.toml")) {
      assertTrue(s.contains(flag), flag);
    }
    assertFalse(s.contains("--enable-binlog"));
    assertFalse(s.contains("--plugin-load"));
  }

  @Test
  void pdFirstStartAsksDiscoveryAndAppendsItsAnswer() throws Exception {
    ScriptRunner r = pdRunner();
    r.stub("wget", "echo \"$@\" >> " + r.dir.resolve("wget.log") + "; echo '--initial-cluster=basic-pd-0=http://basic-pd-0.basic-pd-peer.default.svc:2380'");
    ScriptRunner.Result res = r.run(PdObjects.startScript(TestClusters.load("basic")).render(), Map.of("HOSTNAME", "basic-pd-0"));
    assertEquals(0, res.exit(), res.output());
    assertEquals(List.of("--data-dir=/var/lib/pd", "--name=basic-pd-0", "--peer-urls=http://0.0.0.0:2380",
        "--advertise-peer-urls=http://basic-pd-0.basic-pd-peer.default.svc:2380", "--client-urls=http://0.0.0.0:2379",
        "--advertise-client-urls=http://basic-pd-0.basic-pd-peer.default.svc:2379", "--config=/etc/pd/pd.toml",
        "--initial-cluster=basic-pd-0=http://basic-pd-0.basic-pd-peer.default.svc:2380"),
        res.args().stream().map(a -> a.replace(r.dir.resolve("data").toString(), "/var/lib/pd")).toList());
    String url = Files.readString(r.dir.resolve("wget.log")).trim().split(" ")[3];
    String prefix = "http://basic-discovery.default:10261/new/";
    assertTrue(url.startsWith(prefix), url);
    assertEquals("basic-pd-0.basic-pd-peer.default.svc:2380",
        new String(Base64.getDecoder().decode(url.substring(prefix.length())), StandardCharsets.UTF_8));
  }

  @Test
  void pdWithDiscoveryMtlsAsksDiscoveryOverHttpsWithItsClusterCertificate() throws Exception {
    TidbCluster tc = TestClusters.load("basic");
    tc.getSpec().setTlsCluster(new io.tidb.operator.api.v1alpha1.cluster.TlsCluster());
    tc.getSpec().getTlsCluster().setEnabled(true);
    tc.getSpec().getTlsCluster().setEnableDiscoveryMTLS(true);
    ScriptRunner r = pdRunner();
    r.stub("wget", "exit 1");
    r.stub("curl", "echo \"$@\" >> " + r.dir.resolve("curl.log")
        + "; echo '--initial-cluster=basic-pd-0=https://basic-pd-0.basic-pd-peer.default.svc:2380'");
    ScriptRunner.Result res = r.run(PdObjects.startScript(tc).render(), Map.of("HOSTNAME", "basic-pd-0"));
    assertEquals(0, res.exit(), res.output());
    assertEquals("--initial-cluster=basic-pd-0=https://basic-pd-0.basic-pd-peer.default.svc:2380",
        res.args().get(res.args().size() - 1));
    String call = Files.readString(r.dir.resolve("curl.log")).trim()
        .replace(r.dir.resolve("data").toString(), "/var/lib/pd");
    String encoded = Base64.getEncoder().encodeToString(
        "basic-pd-0.basic-pd-peer.default.svc:2380".getBytes(StandardCharsets.UTF_8));
    assertEquals("-sS --fail --max-time 3 --cacert /var/lib/pd-tls/ca.crt --cert /var/lib/pd-tls/tls.crt"
        + " --key /var/lib/pd-tls/tls.key https://basic-discovery.default:10261/new/" + encoded, call);
  }

  @Test
  void pdAcrossKubernetesClustersIsNamedByItsFullDnsName() {
    TidbCluster tc = TestClusters.load("basic");
    tc.getSpec().setAcrossK8s(true);
    String s = PdObjects.startScript(tc).render();
    assertTrue(s.contains("--name=${PD_DOMAIN} "), s);
    assertTrue(PdObjects.startScript(TestClusters.load("basic")).render().contains("--name=${POD_NAME} "));
  }

  @Test
  void pdRetriesDiscoveryUntilItAnswers() throws Exception {
    ScriptRunner r = pdRunner();
    Path count = r.dir.resolve("count");
    r.stub("wget", "n=$(cat " + count + " 2>/dev/null || echo 0); n=$((n+1)); echo $n > " + count
        + "; if [ $n -lt 3 ]; then exit 1; fi; echo '--join=http://basic-pd-0.basic-pd-peer.default.svc:2379'");
    ScriptRunner.Result res = r.run(PdObjects.startScript(TestClusters.load("basic")).render(), Map.of("POD_NAME", "basic-pd-1"));
    assertEquals(0, res.exit(), res.output());
    assertEquals("3", Files.readString(count).trim());
    assertEquals("--join=http://basic-pd-0.basic-pd-peer.default.svc:2379", res.args().get(res.args().size() - 1));
  }

  @Test
  void pdWithAJoinFileJoinsItsPeersWithoutDiscovery() throws Exception {
    ScriptRunner r = pdRunner();
    r.stub("wget", "echo called >> " + r.dir.resolve("wget.log") + "; exit 1");
    Files.createDirectories(r.dir.resolve("data"));
    Files.writeString(r.dir.resolve("data/join"),
        "basic-pd-0=http://basic-pd-0.basic-pd-peer.default.svc:2380,basic-pd-1=http://basic-pd-1.basic-pd-peer.default.svc:2380");
    ScriptRunner.Result res = r.run(PdObjects.startScript(TestClusters.load("basic")).render(), Map.of("HOSTNAME", "basic-pd-2"));
    assertEquals(0, res.exit(), res.output());
    assertEquals("--join=http://basic-pd-0.basic-pd-peer.default.svc:2380,http://basic-pd-1.basic-pd-peer.default.svc:2380",
        res.args().get(res.args().size() - 1));
    assertFalse(Files.exists(r.dir.resolve("wget.log")));
  }

  @Test
  void pdRestartWithDataStartsWithoutExtraFlags() throws Exception {
    ScriptRunner r = pdRunner();
    r.stub("wget", "exit 1");
    Files.createDirectories(r.dir.resolve("data/member/wal"));
    ScriptRunner.Result res = r.run(PdObjects.startScript(TestClusters.load("basic")).render(), Map.of("HOSTNAME", "basic-pd-0"));
    assertEquals(0, res.exit(), res.output());
    assertEquals("--config=/etc/pd/pd.toml", res.args().get(res.args().size() - 1));
  }

  @Test
  void pdGivesUpWhenItsDnsNameNeverResolves() throws Exception {
    ScriptRunner r = pdRunner();
    r.stub("nslookup", "exit 1");
    ScriptRunner.Result res = r.run(PdObjects.startScript(TestClusters.load("basic")).render(), Map.of("HOSTNAME", "basic-pd-0"));
    assertEquals(1, res.exit(), res.output());
    assertTrue(res.output().contains("no DNS record for basic-pd-0.basic-pd-peer.default.svc after 30 seconds"), res.output());
    assertTrue(res.args().isEmpty());
  }

  @Test
  void debugRunmodeIdlesInsteadOfStarting() throws Exception {
    ScriptRunner r = pdRunner();
    r.stub("tail", "echo IDLE; kill -9 $PPID");
    Files.writeString(r.dir.resolve("etc/podinfo/annotations"), "runmode=\"debug\"\nother=\"$(touch pwned)\"\n");
    ScriptRunner.Result res = r.run(PdObjects.startScript(TestClusters.load("basic")).render(), Map.of("HOSTNAME", "basic-pd-0"));
    assertTrue(res.output().contains("IDLE"), res.output());
    assertTrue(res.args().isEmpty(), "the server never started");
    assertFalse(Files.exists(r.dir.resolve("pwned")), "annotation values are never executed");
  }

  @Test
  void tikvRunsWithCapacityAndStoreLabels() throws Exception {
    ScriptRunner r = new ScriptRunner(tmp, Map.of("exec /tikv-server", "exec " + tmp.resolve("tikv-server")));
    r.server("/tikv-server");
    ScriptRunner.Result res = r.run(TikvObjects.startScript(TestClusters.load("basic")).render(),
        Map.of("HOSTNAME", "basic-tikv-1", "CAPACITY", "10GB", "STORE_LABELS", "zone=a"));
    assertEquals(0, res.exit(), res.output());
    assertEquals(List.of("--pd=basic-pd:2379", "--advertise-addr=basic-tikv-1.basic-tikv-peer.default.svc:20160",
        "--addr=0.0.0.0:20160", "--status-addr=0.0.0.0:20180",
        "--advertise-status-addr=basic-tikv-1.basic-tikv-peer.default.svc:20180", "--data-dir=/var/lib/tikv",
        "--capacity=10GB", "--config=/etc/tikv/tikv.toml", "--labels", "zone=a"), res.args());
  }

  @Test
  void acrossKubernetesClustersTikvAsksDiscoveryWhichPdEndpointsToUse() throws Exception {
    ScriptRunner r = new ScriptRunner(tmp, Map.of("exec /tikv-server", "exec " + tmp.resolve("tikv-server")));
    r.server("/tikv-server");
    Path count = r.dir.resolve("count");
    r.stub("wget", "echo \"$@\" >> " + r.dir.resolve("wget.log") + "; n=$(cat " + count
        + " 2>/dev/null || echo 0); n=$((n+1)); echo $n > " + count
        + "; if [ $n -lt 2 ]; then exit 1; fi; echo 'http://basic-pd:2379,http://basic-pd-0.basic-pd-peer.other.svc.cluster2:2379'");
    TidbCluster tc = TestClusters.load("basic");
    tc.getSpec().setAcrossK8s(true);
    ScriptRunner.Result res = r.run(TikvObjects.startScript(tc).render(),
        Map.of("HOSTNAME", "basic-tikv-0", "CAPACITY", "10GB"));
    assertEquals(0, res.exit(), res.output());
    assertEquals("--pd=basic-pd:2379,basic-pd-0.basic-pd-peer.other.svc.cluster2:2379", res.args().get(0));
    assertEquals("2", Files.readString(count).trim(), "retried until discovery answered");
    String url = Files.readString(r.dir.resolve("wget.log")).trim().split("\n")[0].split(" ")[3];
    String prefix = "http://basic-discovery.default:10261/verify/";
    assertTrue(url.startsWith(prefix), url);
    assertEquals("basic-pd:2379",
        new String(Base64.getDecoder().decode(url.substring(prefix.length())), StandardCharsets.UTF_8));
  }

  @Test
  void acrossKubernetesClustersTidbAsksDiscoveryOverMtlsWithItsCertificate() throws Exception {
    ScriptRunner r = new ScriptRunner(tmp, Map.of("exec /tidb-server", "exec " + tmp.resolve("tidb-server")));
    r.server("/tidb-server");
    r.stub("curl", "echo \"$@\" >> " + r.dir.resolve("curl.log") + "; echo 'basic-pd:2379'");
    TidbCluster tc = TestClusters.load("basic");
    tc.getSpec().setAcrossK8s(true);
    tc.getSpec().setTlsCluster(new io.tidb.operator.api.v1alpha1.cluster.TlsCluster());
    tc.getSpec().getTlsCluster().setEnabled(true);
    tc.getSpec().getTlsCluster().setEnableDiscoveryMTLS(true);
    ScriptRunner.Result res = r.run(TidbObjects.startScript(tc).render(), Map.of("POD_NAME", "basic-tidb-0"));
    assertEquals(0, res.exit(), res.output());
    assertTrue(res.args().contains("--path=basic-pd:2379"), String.valueOf(res.args()));
    String call = Files.readString(r.dir.resolve("curl.log")).trim();
    assertTrue(call.startsWith("-sS --fail --max-time 3 --cacert /var/lib/tidb-tls/ca.crt "
        + "--cert /var/lib/tidb-tls/tls.crt --key /var/lib/tidb-tls/tls.key "
        + "https://basic-discovery.default:10261/verify/"), call);
  }

  @Test
  void tidbRunsWithPluginsSlowLogAndUserArguments() throws Exception {
    ScriptRunner r = new ScriptRunner(tmp, Map.of("exec /tidb-server", "exec " + tmp.resolve("tidb-server")));
    r.server("/tidb-server");
    TidbCluster tc = TestClusters.load("full");
    tc.getSpec().getTidb().setBinlogEnabled(true);
    ScriptRunner.Result res = r.run(TidbObjects.startScript(tc).render(),
        Map.of("POD_NAME", "full-tidb-0", "SLOW_LOG_FILE", "/var/log/tidb/slowlog"));
    assertEquals(0, res.exit(), res.output());
    assertEquals(List.of("--store=tikv", "--advertise-address=full-tidb-0.full-tidb-peer.prod.svc.cluster.local",
        "--host=0.0.0.0", "--path=full-pd:2379", "--config=/etc/tidb/tidb.toml", "--enable-binlog=true",
        "--plugin-dir=/plugins", "--plugin-load=audit,whitelist", "--log-slow-query=/var/log/tidb/slowlog",
        "--log-level=warn"), res.args());
  }

  private ScriptRunner pdRunner() throws IOException {
    ScriptRunner r = new ScriptRunner(tmp, Map.of(
        "/var/lib/pd", tmp.resolve("data").toString(),
        "exec /pd-server", "exec " + tmp.resolve("pd-server")));
    r.server("/pd-server");
    return r;
  }
}
