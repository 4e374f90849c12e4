package io.tidb.operator.controller.tidbcluster.pump;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.v1alpha1.cluster.ComponentConfig;
import io.tidb.operator.api.v1alpha1.cluster.PumpSpec;
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

class PumpObjectsTest {

  @TempDir Path dir;

  private static TidbCluster binlog() {
    TidbCluster tc = TestClusters.load("basic");
    tc.getSpec().setPump(ApiObjects.parse("""
        baseImage: pingcap/tidb-binlog
        replicas: 2
        requests: {storage: 1Gi}
        """, PumpSpec.class));
    return tc;
  }

  @Test
  void matchesGoldenObjects() {
    TidbCluster tc = binlog();
    ConfigMap cm = PumpObjects.configMap(tc, Optional.empty());
    Golden.assertYaml("pump/pump-service.yaml", PumpObjects.headlessService(tc));
    Golden.assertYaml("pump/pump-configmap.yaml", cm);
    Golden.assertYaml("pump/pump-statefulset.yaml",
        PumpObjects.statefulSet(tc, cm, StatefulSetPlan.holding(2)));
  }

  @Test
  void theStatefulSetUsesThePumpServiceAndTheLogLevelComesFromTheConfig() {
    TidbCluster tc = binlog();
    tc.getSpec().getPump().setConfig(ComponentConfig.ofToml("log-level = \"debug\"\n"));
    ConfigMap cm = PumpObjects.configMap(tc, Optional.empty());
    assertEquals("basic-pump",
        PumpObjects.statefulSet(tc, cm, StatefulSetPlan.holding(2)).getSpec().getServiceName());
    String script = cm.getData().get("startup-script");
    assertTrue(script.contains("-L=debug \\"), script);
    assertTrue(script.contains("-advertise-addr=${POD_NAME}.basic-pump:8250 \\"), script);
    tc.getSpec().setClusterDomain("cluster.local");
    assertEquals("p.basic-pump.default.svc.cluster.local", PumpObjects.advertiseHost(tc, "p"));
  }

  /** The script runs with a stand-in {@code /pump} path: exit 0 idles, anything else exits. */
  @Test
  void theStartScriptParsesAndPassesPumpsExitCodeOn() throws Exception {
    String script = PumpObjects.configMap(binlog(), Optional.empty()).getData()
        .get("startup-script");
    Path file = dir.resolve("start.sh");
    Files.writeString(file, script);
    Process parse = new ProcessBuilder("/bin/sh", "-n", file.toString())
        .redirectErrorStream(true).start();
    String out = new String(parse.getInputStream().readAllBytes());
    parse.waitFor(20, TimeUnit.SECONDS);
    assertEquals(0, parse.exitValue(), out);

    Path annotations = dir.resolve("annotations");
    Files.writeString(annotations, "");
    Path pump = dir.resolve("pump");
    Files.writeString(pump, "#!/bin/sh\necho \"$@\" > " + dir.resolve("args") + "\nexit 3\n");
    pump.toFile().setExecutable(true);
    String runnable = script.replace("/etc/podinfo/annotations", annotations.toString())
        .replace("/pump ${ARGS}", pump + " ${ARGS}");
    Files.writeString(file, runnable);
    ProcessBuilder pb = new ProcessBuilder("/bin/sh", file.toString()).redirectErrorStream(true);
    pb.environment().put("POD_NAME", "basic-pump-0");
    Process run = pb.start();
    out = new String(run.getInputStream().readAllBytes());
    run.waitFor(20, TimeUnit.SECONDS);
    assertEquals(3, run.exitValue(), out);
    assertEquals("-pd-urls=http://basic-pd:2379 -L=info"
        + " -advertise-addr=basic-pump-0.basic-pump:8250 -config=/etc/pump/pump.toml"
        + " -data-dir=/data -log-file=", Files.readString(dir.resolve("args")).strip());
  }
}
