package io.tidb.operator.controller.tidbcluster.tiflash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.tidb.operator.api.v1alpha1.cluster.ComponentConfig;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.controller.fixtures.TestClusters;
import io.tidb.operator.controller.tidbcluster.member.StartScriptVersion;
import io.tidb.operator.controller.tidbcluster.member.StatefulSetPlan;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code tiflash.tidb.pingcap.com/mount-cm-in-tiflash-container} mode, upstream's: no init
 * container, the ConfigMap at {@code /etc/tiflash} in the TiFlash container, the pod's addresses
 * on the command line instead of in the config. The start script runs under /bin/sh with a
 * stand-in binary that prints its arguments.
 */
class TiflashMountConfigModeTest {

  private static final String HOST = "${POD_NAME}.${HEADLESS_SERVICE_NAME}.${NAMESPACE}.svc";

  @TempDir Path dir;

  private static TidbCluster mounted() {
    TidbCluster tc = TestClusters.load("tiflash");
    tc.getSpec().getTiflash().setAnnotations(Map.of(TiflashObjects.MOUNT_CM_IN_CONTAINER, "true"));
    return tc;
  }

  private String run(String script, Map<String, String> env) throws Exception {
    Files.writeString(dir.resolve("annotations"), "");
    String local = script.replace("/etc/podinfo/annotations", dir.resolve("annotations").toString())
        .replace("exec " + TiflashScripts.BINARY, "exec echo");
    ProcessBuilder pb = new ProcessBuilder("/bin/sh", "-c", local).redirectErrorStream(true);
    pb.environment().putAll(env);
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes());
    p.waitFor(20, TimeUnit.SECONDS);
    assertEquals(0, p.exitValue(), out);
    String[] lines = out.strip().split("\n");
    return lines[lines.length - 1];
  }

  private static final Map<String, String> POD = Map.of("POD_NAME", "flash-tiflash-1",
      "HEADLESS_SERVICE_NAME", "flash-tiflash-peer", "NAMESPACE", "db", "CLUSTER_NAME", "flash");

  @Test
  void theScriptPassesThePodsAddressesAndPdOnTheCommandLine() throws Exception {
    StartScriptVersion v2 = new StartScriptVersion(StartScriptVersion.Version.V2, Set.of(), List.of());
    assertEquals("server --config-file /etc/tiflash/config_templ.toml --"
            + " --flash.proxy.advertise-addr=flash-tiflash-1.flash-tiflash-peer.db.svc:20170"
            + " --flash.service_addr=flash-tiflash-1.flash-tiflash-peer.db.svc:3930"
            + " --raft.pd_addr=flash-pd:2379",
        run(TiflashScripts.startWithArgs(v2, HOST, "flash", false, "http", false, Optional.empty()), POD));
  }

  @Test
  void v1NamesPdWithItsSchemeV2CanPreferPdAddressesAndLabelsAndStatusAddressAreAdded()
      throws Exception {
    StartScriptVersion v1 = new StartScriptVersion(StartScriptVersion.Version.V1, Set.of(), List.of());
    String v1Args = run(TiflashScripts.startWithArgs(v1, HOST, "flash", false, "https", true, Optional.empty()),
        Map.of("POD_NAME", "flash-tiflash-0", "HEADLESS_SERVICE_NAME", "flash-tiflash-peer",
            "NAMESPACE", "db", "CLUSTER_NAME", "flash", "STORE_LABELS", "zone=z1"));
    assertTrue(v1Args.contains(" --raft.pd_addr=https://flash-pd:2379"), v1Args);
    assertTrue(v1Args.contains(
        " --flash.proxy.advertise-status-addr=flash-tiflash-0.flash-tiflash-peer.db.svc:20292 "),
        v1Args);
    assertTrue(v1Args.endsWith("--labels zone=z1"), v1Args);

    StartScriptVersion prefer = new StartScriptVersion(StartScriptVersion.Version.V2,
        Set.of(StartScriptVersion.Flag.PREFER_PD_ADDRESSES_OVER_DISCOVERY),
        List.of("http://pd-a.other:2379", "http://pd-b.other:2379"));
    assertTrue(run(TiflashScripts.startWithArgs(prefer, HOST, "flash", false, "http", false, Optional.empty()), POD)
        .endsWith(" --raft.pd_addr=pd-a.other:2379,pd-b.other:2379"));
  }

  @Test
  void aHeterogeneousClusterWithoutPdJoinsTheReferencedPdAndAcrossKubernetesAsksDiscovery()
      throws Exception {
    StartScriptVersion v2 = new StartScriptVersion(StartScriptVersion.Version.V2, Set.of(), List.of());
    StartScriptVersion v1 = new StartScriptVersion(StartScriptVersion.Version.V1, Set.of(), List.of());
    assertTrue(run(TiflashScripts.startWithArgs(v2, HOST, "basic", true, "http", false,
        Optional.empty()), POD).endsWith(" --raft.pd_addr=basic-pd:2379"));
    assertTrue(run(TiflashScripts.startWithArgs(v1, HOST, "basic", true, "http", false,
        Optional.empty()), POD).endsWith(" --raft.pd_addr=http://basic-pd:2379"));

    Files.createDirectories(dir.resolve("bin"));
    Path wget = dir.resolve("bin/wget");
    Files.writeString(wget, "#!/bin/sh\nprintf 'http://flash-pd:2379,http://other-pd-0.other-pd-peer.db.svc.c2:2379'\n");
    wget.toFile().setExecutable(true);
    var across = new io.tidb.operator.controller.tidbcluster.member.AcrossK8sPd("flash-pd:2379",
        "flash-discovery.db:10261",
        new io.tidb.operator.controller.tidbcluster.member.StartScriptFetch(false, "/tls"), false);
    Map<String, String> env = new java.util.HashMap<>(POD);
    env.put("PATH", dir.resolve("bin") + ":" + System.getenv("PATH"));
    assertTrue(run(TiflashScripts.startWithArgs(v2, HOST, "flash", false, "http", false,
        Optional.of(across)), env)
        .endsWith(" --raft.pd_addr=flash-pd:2379,other-pd-0.other-pd-peer.db.svc.c2:2379"));
  }

  @Test
  void noInitContainerAndTheConfigMapIsMountedInTheTiflashContainer() {
    TidbCluster tc = mounted();
    StatefulSet sts = TiflashObjects.statefulSet(tc, TiflashObjects.configMap(tc, Optional.empty()),
        StatefulSetPlan.holding(1));
    var pod = sts.getSpec().getTemplate().getSpec();
    assertTrue(pod.getInitContainers() == null
        || pod.getInitContainers().stream().noneMatch(c -> c.getName().equals("init")));
    Container main = pod.getContainers().get(0);
    assertTrue(main.getVolumeMounts().stream()
        .anyMatch(m -> m.getName().equals("config") && m.getMountPath().equals("/etc/tiflash")));
    assertTrue(TiflashObjects.configMap(tc, Optional.empty()).getData().get("startup-script")
        .contains("--config-file /etc/tiflash/config_templ.toml"));
    assertEquals(false, TiflashObjects.mountsConfigInContainer(TestClusters.load("tiflash")));
  }

  @Test
  void theConfigLeavesThePodsAddressesToTheCommandLine() {
    TidbCluster tc = mounted();
    ComponentConfig common = ComponentConfig.ofToml(TiflashConfigFiles.of(tc).config());
    ComponentConfig proxy = ComponentConfig.ofToml(TiflashConfigFiles.of(tc).proxy());
    assertFalse(common.get("flash.service_addr").isPresent());
    assertFalse(common.get("flash.proxy.advertise-addr").isPresent());
    assertEquals("/etc/tiflash/proxy_templ.toml",
        common.get("flash.proxy.config").orElseThrow().asText());
    assertFalse(proxy.get("server.engine-addr").isPresent());
    assertFalse(proxy.get("server.advertise-status-addr").isPresent());
    assertEquals("0.0.0.0:20292", proxy.get("server.status-addr").orElseThrow().asText());
  }
}
