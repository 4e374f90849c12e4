package io.tidb.operator.controller.tidbcluster.tiflash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.tidb.operator.controller.tidbcluster.member.StartScriptVersion;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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
    assertEquals(0, run(TiflashScripts.init(UNSET), "basic-tiflash-12"));
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
    assertNotEquals(0, run(TiflashScripts.init(UNSET), "basic-tiflash-0"));
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
}
