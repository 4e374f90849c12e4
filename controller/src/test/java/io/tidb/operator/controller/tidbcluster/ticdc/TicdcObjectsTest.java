package io.tidb.operator.controller.tidbcluster.ticdc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.v1alpha1.cluster.ComponentConfig;
import io.tidb.operator.api.v1alpha1.cluster.TicdcSpec;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.controller.fixtures.Golden;
import io.tidb.operator.controller.fixtures.TestClusters;
import io.tidb.operator.controller.tidbcluster.member.StatefulSetPlan;
import java.nio.file.Files;
import java.nio.file.Path;
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
}
