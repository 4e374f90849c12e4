package io.tidb.operator.testsupport;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The full local control plane (etcd, kube-apiserver, kube-controller-manager, kube-scheduler, kwok
 * with fake nodes) from {@code hack/control-plane.sh}. The first call per JVM runs {@code up}, which
 * reuses a plane that is already running (hack/test.sh starts one before Maven and stops it after).
 * A plane this JVM started is left running for later test JVMs and runs; stop it with
 * {@code hack/control-plane.sh down}.
 */
public final class LocalControlPlane {

  private static final Logger log = LoggerFactory.getLogger(LocalControlPlane.class);
  private static final long UP_TIMEOUT_SECONDS = 300;
  static final String STATE_DIR_ENV = "TIDB_OPERATOR_LOCAL_DIR";

  private static ClusterAccess shared;
  private static RuntimeException startupFailure;

  private LocalControlPlane() {
  }

  /** The running plane's access, starting it on the first call in this JVM if needed. */
  public static synchronized ClusterAccess shared() {
    if (startupFailure != null) {
      throw new IllegalStateException("the local control plane failed to start earlier in this JVM: "
          + startupFailure.getMessage(), startupFailure);
    }
    if (shared == null) {
      try {
        KubernetesBinaries.fromEnvironment()
            .requirePresent("etcd", "kube-apiserver", "kube-controller-manager", "kube-scheduler", "kubectl", "kwok");
        Path kubeconfig = up(ProjectDirectory.root().resolve("hack/control-plane.sh"));
        shared = new ClusterAccess(read(kubeconfig));
      } catch (RuntimeException e) {
        startupFailure = e;
        throw e;
      }
    }
    return shared;
  }

  private static Path up(Path script) {
    try {
      Path stdout = Files.createTempFile("control-plane-up-", ".out");
      Path stderr = Files.createTempFile("control-plane-up-", ".log");
      Process process = new ProcessBuilder(script.toString(), "up")
          .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
          .redirectOutput(stdout.toFile())
          .redirectError(stderr.toFile())
          .start();
      if (!process.waitFor(UP_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new IllegalStateException(script + " up did not finish in " + UP_TIMEOUT_SECONDS + "s; its messages: "
            + stderr);
      }
      String messages = Files.readString(stderr);
      String output = Files.readString(stdout);
      Files.delete(stdout);
      Files.delete(stderr);
      if (process.exitValue() != 0) {
        throw new IllegalStateException(script + " up failed with exit code " + process.exitValue() + ":\n" + messages);
      }
      Path kubeconfig = Path.of(lastLine(output));
      log.info("local control plane ready kubeconfig={} message=\"{}\"", kubeconfig, lastLine(messages));
      return kubeconfig;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run " + script, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while running " + script + " up", e);
    }
  }

  /** The script's state directory: {@code TIDB_OPERATOR_LOCAL_DIR} or its default. */
  public static Path stateDirectory() {
    String configured = System.getenv(STATE_DIR_ENV);
    return configured != null && !configured.isBlank()
        ? Path.of(configured)
        : Path.of(System.getProperty("user.home"), ".local/share/tidb-operator-java/control-plane");
  }

  /** The running components' process ids by name (etcd, kube-apiserver, ...), from the script's pid files. */
  public static Map<String, Long> processIds() {
    Path pids = stateDirectory().resolve("pids");
    Map<String, Long> result = new TreeMap<>();
    try (Stream<Path> files = Files.list(pids)) {
      for (Path file : (Iterable<Path>) files::iterator) {
        String name = file.getFileName().toString();
        if (name.endsWith(".pid")) {
          result.put(name.substring(0, name.length() - 4), Long.parseLong(Files.readString(file).strip()));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read pid files in " + pids, e);
    }
    return result;
  }

  /**
   * The {@code --name=value} flags a running component was started with (from {@code
   * /proc/<pid>/cmdline}), by name; empty when it has no pid file.
   */
  public static Map<String, String> commandLineFlags(String component) {
    Long pid = processIds().get(component);
    if (pid == null) {
      return Map.of();
    }
    try {
      return flags(Files.readString(Path.of("/proc", pid.toString(), "cmdline")));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the command line of " + component + " (pid " + pid + ")", e);
    }
  }

  /** The {@code --name=value} arguments of a NUL-separated command line, by name; a later one wins. */
  static Map<String, String> flags(String cmdline) {
    Map<String, String> flags = new TreeMap<>();
    for (String arg : cmdline.split("\u0000")) {
      int eq = arg.indexOf('=');
      if (arg.startsWith("--") && eq > 2) {
        flags.put(arg.substring(0, eq), arg.substring(eq + 1));
      }
    }
    return flags;
  }

  /** The last non-blank line of a command's output; the script prints the kubeconfig path there. */
  static String lastLine(String output) {
    List<String> lines = output.lines().filter(line -> !line.isBlank()).toList();
    if (lines.isEmpty()) {
      throw new IllegalStateException("expected output, got none");
    }
    return lines.get(lines.size() - 1).strip();
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read kubeconfig " + file, e);
    }
  }
}
