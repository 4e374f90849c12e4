package io.tidb.operator.e2e;

import io.tidb.operator.testsupport.KubernetesBinaries;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The kubectl binary built by hack/build-binaries.sh, run the way a user runs it. */
final class KubectlCli {

  private final Path binary;
  private final Path kubeconfig;

  KubectlCli(Path kubeconfig) {
    this.binary = KubernetesBinaries.fromEnvironment().requirePresent("kubectl").binary("kubectl");
    this.kubeconfig = kubeconfig;
  }

  CommandResult run(String... args) {
    List<String> command = new ArrayList<>(List.of(binary.toString(), "--kubeconfig", kubeconfig.toString()));
    command.addAll(List.of(args));
    return Commands.run(command, Map.of(), Duration.ofMinutes(1));
  }
}
