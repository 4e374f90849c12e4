package io.tidb.operator.controller.tidbcluster.tiflash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.tidb.operator.controller.tidbcluster.member.StartScriptVersion;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The init script runs under /bin/sh in a scratch directory with the templates in place: each
 * {@code POD_NUM} becomes the ordinal of {@code POD_NAME}; a missing template fails the pod. The
 * start script passes {@code sh -n}.
 */
class TiflashScriptsTest {

  private static final StartScriptVersion UNSET =
      new StartScriptVersion(StartScriptVersion.Version.DEFAULT, Set.of(), List.of());

  @TempDir Path dir;

  private int run(String script, String podName) throws Exception {
    String local = script.replace(TiflashObjects.CONFIG_DIR, dir.resolve("etc").toString())
        .replace("/data0/", dir.resolve("data0") + "/");
    ProcessBuilder pb = new ProcessBuilder("/bin/sh", "-c", local).redirectErrorStream(true);
    pb.environment().put("POD_NAME", podName);
    pb.environment().put("PATH", dir.resolve("bin") + ":" + System.getenv("PATH"));
    Process p = pb.start();
    p.getInputStream().readAllBytes();
    p.waitFor(20, TimeUnit.SECONDS);
    return p.exitValue();
  }

  @Test
  void initReplacesPodNumWithTheOrdinalInBothFiles() throws Exception {
    Files.createDirectories(dir.resolve("etc"));
    Files.createDirectories(dir.resolve("data0"));
    Files.writeString(dir.resolve("etc/config_templ.toml"),
        "[flash.proxy]\nadvertise-addr = \"basic-tiflash-POD_NUM.basic-tiflash-peer:20170\"\n");
    Files.writeString(dir.resolve("etc/proxy_templ.toml"),
        "[server]\nengine-addr = \"basic-tiflash-POD_NUM.basic-tiflash-peer:3930\"\n");
    assertEquals(0, run(TiflashScripts.init(UNSET, Optional.empty()), "basic-tiflash-12"));
    assertEquals("[flash.proxy]\nadvertise-addr = \"basic-tiflash-12.basic-tiflash-peer:20170\"\n",
        Files.readString(dir.resolve("data0/config.toml")));
    assertEquals("[server]\nengine-addr = \"basic-tiflash-12.basic-tiflash-peer:3930\"\n",
        Files.readString(dir.resolve("data0/proxy.toml")));
  }

  @Test
  void initFailsWhenATemplateIsMissing() throws Exception {
    Files.createDirectories(dir.resolve("etc"));
    Files.createDirectories(dir.resolve("data0"));
    Files.writeString(dir.resolve("etc/config_templ.toml"), "x = 1\n");
    assertNotEquals(0, run(TiflashScripts.init(UNSET, Optional.empty()), "basic-tiflash-0"));
  }

  @Test
  void theStartScriptParses() throws Exception {
    Path script = dir.resolve("start.sh");
    Files.writeString(script, TiflashScripts.start(UNSET));
    Process p = new ProcessBuilder("/bin/sh", "-n", script.toString()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes());
    p.waitFor(20, TimeUnit.SECONDS);
    assertEquals(0, p.exitValue(), out);
  }

  @Test
  void acrossKubernetesClustersInitPutsDiscoverysAnswerWherePdAddrStands() throws Exception {
    Files.createDirectories(dir.resolve("etc"));
    Files.createDirectories(dir.resolve("data0"));
    Files.createDirectories(dir.resolve("bin"));
    Files.writeString(dir.resolve("etc/config_templ.toml"), "[raft]\npd_addr = \"PD_ADDR\"\n");
    Files.writeString(dir.resolve("etc/proxy_templ.toml"), "[pd]\nendpoints = [\"PD_ADDR\"]\n");
    // discovery stand-in: refuses the first call, then answers; records what it was asked
    Path wget = dir.resolve("bin/wget");
    Files.writeString(wget, """
        #!/bin/sh
        echo "$@" >> "%1$s/calls"
        if [ ! -f "%1$s/answered-once" ]; then touch "%1$s/answered-once"; exit 1; fi
        printf 'http://basic-pd:2379,http://other-pd-0.other-pd-peer.ns.svc.cluster2:2379'
        """.formatted(dir));
    Path sleep = dir.resolve("bin/sleep");
    Files.writeString(sleep, "#!/bin/sh\nexit 0\n");
    wget.toFile().setExecutable(true);
    sleep.toFile().setExecutable(true);
    var across = new io.tidb.operator.controller.tidbcluster.member.AcrossK8sPd("basic-pd:2379",
        "basic-discovery.ns:10261",
        new io.tidb.operator.controller.tidbcluster.member.StartScriptFetch(false, "/tls"), false);
    assertEquals(0, run(TiflashScripts.init(UNSET, Optional.of(across)), "basic-tiflash-0"));
    assertEquals("[raft]\npd_addr = \"basic-pd:2379,other-pd-0.other-pd-peer.ns.svc.cluster2:2379\"\n",
        Files.readString(dir.resolve("data0/config.toml")));
    assertEquals("[pd]\nendpoints = [\"basic-pd:2379,other-pd-0.other-pd-peer.ns.svc.cluster2:2379\"]\n",
        Files.readString(dir.resolve("data0/proxy.toml")));
    List<String> calls = Files.readAllLines(dir.resolve("calls"));
    assertEquals(2, calls.size(), "retried until discovery answered: " + calls);
    assertEquals("-qO- -T 3 http://basic-discovery.ns:10261/verify/YmFzaWMtcGQ6MjM3OQ==", calls.get(1));
  }
}
