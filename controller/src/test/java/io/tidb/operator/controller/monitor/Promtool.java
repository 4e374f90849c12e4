package io.tidb.operator.controller.monitor;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import io.tidb.operator.testsupport.KubernetesBinaries;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The real {@code promtool} and {@code prometheus}, upstream's 2.53 built by {@code
 * hack/build-binaries.sh} beside the control-plane binaries (Debian's package is built without
 * {@code kubernetes_sd_configs}). Missing binaries fail the test saying how to build them; they are
 * never a reason to skip.
 */
final class Promtool {

  private Promtool() {}

  /** The binary, or a {@link io.tidb.operator.testsupport.MissingBinariesException} naming the build script. */
  static Path binary(String name) {
    return KubernetesBinaries.fromEnvironment().requirePresent(name).binary(name);
  }

  /** The exit code and output of {@code promtool <args>}. */
  record Result(int exit, String output) {}

  static Result run(String... args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add(binary("promtool").toString());
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    if (!p.waitFor(60, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("promtool " + String.join(" ", args) + " did not finish in 60 s");
    }
    return new Result(p.exitValue(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
  }

  /**
   * What the Prometheus container's start command (or prometheus-config-reloader) does to the
   * ConfigMap before Prometheus reads it: {@code $(NAMESPACE)}, {@code $(POD_NAME)} and
   * {@code $(SHARD)} expanded.
   */
  static String expand(String yaml, String namespace, String pod, int shard) {
    return yaml.replace("$(NAMESPACE)", namespace).replace("$(POD_NAME)", pod)
        .replace("$(SHARD)", Integer.toString(shard));
  }
}
