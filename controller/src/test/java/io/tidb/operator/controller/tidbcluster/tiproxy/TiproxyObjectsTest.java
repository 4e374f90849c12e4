package io.tidb.operator.controller.tidbcluster.tiproxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.v1alpha1.cluster.ComponentConfig;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.cluster.TiproxySpec;
import io.tidb.operator.controller.fixtures.Golden;
import io.tidb.operator.controller.fixtures.TestClusters;
import io.tidb.operator.controller.tidbcluster.member.StatefulSetPlan;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TiproxyObjectsTest {

  @TempDir Path dir;

  private static TidbCluster proxy() {
    TidbCluster tc = TestClusters.load("basic");
    tc.getSpec().setTiproxy(ApiObjects.parse("""
        baseImage: pingcap/tiproxy
        version: v1.3.0
        replicas: 2
        """, TiproxySpec.class));
    return tc;
  }

  @Test
  void matchesGoldenObjects() {
    TidbCluster tc = proxy();
    ConfigMap cm = TiproxyObjects.configMap(tc, Optional.empty());
    Golden.assertYaml("tiproxy/tiproxy-service.yaml", TiproxyObjects.clientService(tc));
    Golden.assertYaml("tiproxy/tiproxy-peer-service.yaml", TiproxyObjects.peerService(tc));
    Golden.assertYaml("tiproxy/tiproxy-configmap.yaml", cm);
    Golden.assertYaml("tiproxy/tiproxy-statefulset.yaml",
        TiproxyObjects.statefulSet(tc, cm, StatefulSetPlan.holding(2)));
  }

  @Test
  void theOperatorSetsPdAndWorkdirAndLeavesBackendTlsToTheUser() {
    TidbCluster tc = proxy();
    String toml = TiproxyObjects.configMap(tc, Optional.empty()).getData().get("config-file");
    assertTrue(toml.contains("pd-addrs = 'basic-pd:2379'"), toml);
    assertTrue(toml.contains("require-backend-tls = false"), toml);
    assertTrue(toml.contains("workdir = '/var/lib/tiproxy/work'"), toml);
    tc.getSpec().getTiproxy().setConfig(ComponentConfig.ofToml(
        "[proxy]\nrequire-backend-tls = true\npd-addrs = \"elsewhere:2379\"\n"));
    toml = TiproxyObjects.configMap(tc, Optional.empty()).getData().get("config-file");
    assertTrue(toml.contains("require-backend-tls = true"), toml);
    assertTrue(toml.contains("pd-addrs = 'basic-pd:2379'"), "PD is always the cluster's: " + toml);
  }

  @Test
  void theStartScriptAdvertisesThePeerAddressAndParses() throws Exception {
    String script = TiproxyObjects.startScript(proxy()).render();
    assertTrue(script.contains("--advertise-addr=${POD_NAME}.basic-tiproxy-peer.default.svc"),
        script);
    Path file = dir.resolve("start.sh");
    Files.writeString(file, script);
    Process p = new ProcessBuilder("/bin/sh", "-n", file.toString()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes());
    p.waitFor(20, TimeUnit.SECONDS);
    assertEquals(0, p.exitValue(), out);
  }
}
