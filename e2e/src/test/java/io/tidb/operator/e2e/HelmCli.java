package io.tidb.operator.e2e;

import io.tidb.operator.testsupport.KubernetesBinaries;
import io.tidb.operator.testsupport.ProjectDirectory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The helm CLI built by hack/build-binaries.sh, run against the project's chart. Helm's own state
 * (config, cache, data) lives in a private directory, never in the user's ~/.config/helm.
 */
final class HelmCli {

  static final Duration TIMEOUT = Duration.ofMinutes(3);

  private final Path binary;
  private final Path chart;
  private final Map<String, String> environment;

  private HelmCli(Path binary, Path chart, Path home) {
    this.binary = binary;
    this.chart = chart;
    this.environment = Map.of(
        "HELM_CONFIG_HOME", home.resolve("config").toString(),
        "HELM_CACHE_HOME", home.resolve("cache").toString(),
        "HELM_DATA_HOME", home.resolve("data").toString());
  }

  /** The pinned helm binary and charts/tidb-operator; fails naming the build script if helm is missing. */
  static HelmCli forProjectChart() {
    Path helm = KubernetesBinaries.fromEnvironment().requirePresent("helm").binary("helm");
    try {
      return new HelmCli(helm, ProjectDirectory.root().resolve("charts/tidb-operator"),
          Files.createTempDirectory("helm-home-"));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create a helm home directory", e);
    }
  }

  Path chart() {
    return chart;
  }

  CommandResult lint(String valuesYaml) {
    return run(withValues(new ArrayList<>(List.of("lint", "--strict", chart.toString())), valuesYaml));
  }

  /** {@code helm template} with the given values (YAML text); {@code showOnly} limits the output to those templates. */
  CommandResult template(String release, String namespace, String valuesYaml, String... showOnly) {
    List<String> args = new ArrayList<>(List.of("template", release, chart.toString(), "--namespace", namespace));
    for (String template : showOnly) {
      args.add("--show-only");
      args.add(template);
    }
    return run(withValues(args, valuesYaml));
  }

  CommandResult install(Path kubeconfig, String release, String namespace, String valuesYaml) {
    return run(withValues(new ArrayList<>(List.of("install", release, chart.toString(),
        "--kubeconfig", kubeconfig.toString(), "--namespace", namespace, "--create-namespace")), valuesYaml));
  }

  CommandResult upgrade(Path kubeconfig, String release, String namespace, String valuesYaml) {
    return run(withValues(new ArrayList<>(List.of("upgrade", release, chart.toString(),
        "--kubeconfig", kubeconfig.toString(), "--namespace", namespace)), valuesYaml));
  }

  CommandResult uninstall(Path kubeconfig, String release, String namespace) {
    return run(List.of("uninstall", release, "--kubeconfig", kubeconfig.toString(), "--namespace", namespace,
        "--wait", "--timeout", "2m"));
  }

  private List<String> withValues(List<String> args, String valuesYaml) {
    if (valuesYaml != null && !valuesYaml.isBlank()) {
      args.add("--values");
      args.add(writeValues(valuesYaml).toString());
    }
    return args;
  }

  private static Path writeValues(String valuesYaml) {
    try {
      Path file = Files.createTempFile("values-", ".yaml");
      Files.writeString(file, valuesYaml);
      file.toFile().deleteOnExit();
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write a values file", e);
    }
  }

  private CommandResult run(List<String> args) {
    List<String> command = new ArrayList<>();
    command.add(binary.toString());
    command.addAll(args);
    return Commands.run(command, environment, TIMEOUT);
  }
}
