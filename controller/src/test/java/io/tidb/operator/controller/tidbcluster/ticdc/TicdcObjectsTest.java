package io.tidb.operator.controller.tidbcluster.ticdc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.v1alpha1.cluster.ComponentConfig;
import io.tidb.operator.api.v1alpha1.cluster.TicdcSpec;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.controller.fixtures.ScriptRunner;
import io.tidb.operator.controller.fixtures.Golden;
import io.tidb.operator.controller.fixtures.TestClusters;
import io.tidb.operator.controller.tidbcluster.member.StatefulSetPlan;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TicdcObjectsTest {

  @TempDir Path dir;

  private static TidbCluster cdc() {
    TidbCluster tc = TestClusters.load("basic");
    tc.getSpec().setTicdc(ApiObjects.parse("""
        baseImage: pingcap/ticdc
        replicas: 3
        """, TicdcSpec.class));
    return tc;
  }

  @Test
  void matchesGoldenObjects() {
    TidbCluster tc = cdc();
    ConfigMap cm = TicdcObjects.configMap(tc, Optional.empty());
    Golden.assertYaml("ticdc/ticdc-peer-service.yaml", TicdcObjects.peerService(tc));
    Golden.assertYaml("ticdc/ticdc-configmap.yaml", cm);
    Golden.assertYaml("ticdc/ticdc-statefulset.yaml",
        TicdcObjects.statefulSet(tc, cm, StatefulSetPlan.holding(3)));
  }

  @Test
  void flagSettingsComeFromTheConfigAndOnlyOtherSettingsNeedTheFile() {
    TidbCluster tc = cdc();
    tc.getSpec().getTicdc().setConfig(ComponentConfig.ofToml(
        "gc-ttl = 3600\nlog-level = \"debug\"\n"));
    String script = TicdcObjects.startScript(tc).render();
    assertTrue(script.contains("--gc-ttl=3600 \\"), script);
    assertTrue(script.contains("--log-level=debug \\"), script);
    assertTrue(script.contains("--pd=http://basic-pd:2379\""), script);
    assertTrue(!script.contains("--config="), "only flag settings: no config file");
    tc.getSpec().getTicdc().setConfig(ComponentConfig.ofToml("per-table-memory-quota = 1\n"));
    assertTrue(TicdcObjects.startScript(tc).render().contains("--config=/etc/ticdc/ticdc.toml"));
  }

  @Test
  void theStartScriptParses() throws Exception {
    Path script = dir.resolve("start.sh");
    Files.writeString(script, TicdcObjects.startScript(cdc()).render());
    Process p = new ProcessBuilder("/bin/sh", "-n", script.toString()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes());
    p.waitFor(20, TimeUnit.SECONDS);
    assertEquals(0, p.exitValue(), out);
  }

  @Test
  void aHeterogeneousClusterWithoutPdGivesTicdcTheReferencedClustersPd() {
    TidbCluster tc = cdc();
    tc.getSpec().setPd(null);
    tc.getSpec().setCluster(new io.tidb.operator.api.v1alpha1.shared.TidbClusterRef());
    tc.getSpec().getCluster().setName("main");
    assertTrue(TicdcObjects.startScript(tc).render().contains("--pd=http://main-pd:2379\""));
    tc.getSpec().getCluster().setNamespace("other");
    assertTrue(TicdcObjects.startScript(tc).render().contains("--pd=http://main-pd.other:2379\""));
  }

  @Test
  void acrossKubernetesClustersTicdcAsksDiscoveryAndKeepsTheSchemeOfTheAnswer() throws Exception {
    ScriptRunner r = new ScriptRunner(dir, Map.of("exec /cdc", "exec " + dir.resolve("cdc")));
    r.server("/cdc");
    Path count = r.dir.resolve("count");
    r.stub("curl", "echo \"$@\" >> " + r.dir.resolve("curl.log") + "; n=$(cat " + count
        + " 2>/dev/null || echo 0); n=$((n+1)); echo $n > " + count
        + "; if [ $n -lt 2 ]; then exit 1; fi;"
        + " echo 'https://basic-pd:2379,https://basic-pd-0.basic-pd-peer.other.svc.cluster2:2379'");
    TidbCluster tc = cdc();
    tc.getSpec().setAcrossK8s(true);
    tc.getSpec().getTlsCluster().setEnabled(true);
    tc.getSpec().getTlsCluster().setEnableDiscoveryMTLS(true);
    ScriptRunner.Result res =
        r.run(TicdcObjects.startScript(tc).render(), Map.of("POD_NAME", "basic-ticdc-0"));
    assertEquals(0, res.exit(), res.output());
    assertTrue(res.args().contains(
        "--pd=https://basic-pd:2379,https://basic-pd-0.basic-pd-peer.other.svc.cluster2:2379"),
        String.valueOf(res.args()));
    assertEquals("2", Files.readString(count).trim(), "retried until discovery answered");
    String call = Files.readString(r.dir.resolve("curl.log")).trim().split("\n")[0];
    String prefix = "-sS --fail --max-time 3 --cacert /var/lib/ticdc-tls/ca.crt"
        + " --cert /var/lib/ticdc-tls/tls.crt --key /var/lib/ticdc-tls/tls.key"
        + " https://basic-discovery.default:10261/verify/";
    assertTrue(call.startsWith(prefix), call);
    assertEquals("https://basic-pd:2379", new String(java.util.Base64.getDecoder().decode(
        call.substring(prefix.length())), java.nio.charset.StandardCharsets.UTF_8));
  }
}
