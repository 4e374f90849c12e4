package io.tidb.operator.controller.desired;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs a rendered start script under /bin/sh in a scratch directory: absolute paths the script
 * uses ({@code /etc/podinfo}, and the texts in the path map, e.g. data dirs and the server binary)
 * are replaced by paths in the directory, and
 * commands it calls ({@code nslookup}, {@code wget}, {@code sleep}) are stubs on PATH. The server
 * stub prints its arguments, one per line, so a test sees the exact command line.
 */
final class ScriptRunner {
  final Path dir;
  private final Map<String, String> pathMap;

  ScriptRunner(Path dir, Map<String, String> pathMap) throws IOException {
    assumeTrue(Files.isExecutable(Path.of("/bin/sh")), "needs /bin/sh");
    this.dir = dir;
    this.pathMap = pathMap;
    Files.createDirectories(dir.resolve("bin"));
    Files.createDirectories(dir.resolve("etc/podinfo"));
    Files.writeString(dir.resolve("etc/podinfo/annotations"), "prometheus.io/scrape=\"true\"\n");
    stub("nslookup", "exit 0");
    stub("sleep", "exit 0");
  }

  /** Puts an executable {@code name} with {@code body} (sh) on the script's PATH. */
  void stub(String name, String body) throws IOException {
    Path p = dir.resolve("bin").resolve(name);
    Files.writeString(p, "#!/bin/sh\n" + body + "\n", StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  /** A server stub at {@code <dir>/<binary>} that prints its arguments, one per line. */
  void server(String binary) throws IOException {
    Path p = dir.resolve(binary.substring(1));
    Files.createDirectories(p.getParent());
    Files.writeString(p, "#!/bin/sh\nfor a in \"$@\"; do echo \"ARG $a\"; done\n");
    Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  record Result(int exit, List<String> args, String output) {}

  Result run(String script, Map<String, String> env) throws IOException, InterruptedException {
    String mapped = script.replace("/etc/podinfo", dir.resolve("etc/podinfo").toString());
    for (Map.Entry<String, String> e : pathMap.entrySet()) {
      mapped = mapped.replace(e.getKey(), e.getValue());
    }
    Path file = dir.resolve("start.sh");
    Files.writeString(file, mapped);
    ProcessBuilder pb = new ProcessBuilder("/bin/sh", file.toString()).redirectErrorStream(true);
    pb.environment().clear();
    pb.environment().put("PATH", dir.resolve("bin") + ":/usr/bin:/bin");
    pb.environment().putAll(env);
    Process p = pb.start();
    if (!p.waitFor(30, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("script did not finish");
    }
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    List<String> args = new ArrayList<>();
    for (String line : out.split("\n")) {
      if (line.startsWith("ARG ")) {
        args.add(line.substring(4));
      }
    }
    return new Result(p.exitValue(), args, out);
  }
}
