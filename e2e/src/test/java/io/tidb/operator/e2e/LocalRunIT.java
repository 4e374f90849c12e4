package io.tidb.operator.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tidb.operator.testsupport.ProjectDirectory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The README's main command as a user runs it: {@code hack/local-up.sh} twice (the second run
 * replaces the processes and finds the cluster Ready), then {@code hack/local-down.sh}, after which
 * no process it started runs and its state directory is gone. Uses its own state directory, so its
 * control plane is separate from the one the other tests share. {@code --skip-build}: the Maven
 * build running this test has just built everything.
 */
class LocalRunIT {

  static final Duration UP_TIMEOUT = Duration.ofMinutes(12);

  @Test
  void upTwiceThenDownLeavesNothingRunning() throws IOException {
    Path state = Files.createTempDirectory("local-run-");
    Files.delete(state); // the script creates it; local-down must remove it again
    Map<String, String> env = Map.of("TIDB_OPERATOR_LOCAL_RUN_DIR", state.toString());
    Path root = ProjectDirectory.root();
    try {
      CommandResult first = Commands.run(List.of(root.resolve("hack/local-up.sh").toString(), "--skip-build"),
          env, UP_TIMEOUT).requireSuccess();
      assertTrue(first.stdout().contains("PD is simulated: no real TiDB runs here"), first.describe());
      assertTrue(first.stdout().contains("TidbCluster tidb-cluster/basic is Ready"), first.describe());
      assertTrue(first.stdout().contains("export KUBECONFIG=" + state.resolve("control-plane/kubeconfig")), first.describe());
      assertTrue(first.stdout().contains("hack/local-down.sh"), first.describe());
      Map<String, Long> firstProcesses = pids(state.resolve("pids"));
      assertEquals(List.of("controller", "pd-simulator", "webhook"), List.copyOf(firstProcesses.keySet()));
      Map<String, Long> controlPlane = pids(state.resolve("control-plane/pids"));
      assertFalse(controlPlane.isEmpty());
      assertAllAlive(firstProcesses);
      assertAllAlive(controlPlane);

      CommandResult second = Commands.run(List.of(root.resolve("hack/local-up.sh").toString(), "--skip-build"),
          env, UP_TIMEOUT).requireSuccess();
      assertTrue(second.stdout().contains("Stopping the previous run's controller"), second.describe());
      assertTrue(second.stdout().contains("TidbCluster tidb-cluster/basic is Ready"), second.describe());
      assertEquals(controlPlane, pids(state.resolve("control-plane/pids")), "the control plane is kept");
      assertAllDead(firstProcesses);
      Map<String, Long> secondProcesses = pids(state.resolve("pids"));
      assertAllAlive(secondProcesses);

      CommandResult down = Commands.run(List.of(root.resolve("hack/local-down.sh").toString()),
          env, Duration.ofMinutes(2)).requireSuccess();
      assertTrue(down.stdout().contains("Nothing of the local run is left running"), down.describe());
      assertAllDead(secondProcesses);
      assertAllDead(controlPlane);
      assertFalse(Files.exists(state), state + " is removed");
    } finally {
      if (Files.exists(state)) {
        Commands.run(List.of(root.resolve("hack/local-down.sh").toString()), env, Duration.ofMinutes(2));
      }
    }
  }

  /** Process ids by name from a directory of {@code <name>.pid} files. */
  static Map<String, Long> pids(Path directory) {
    Map<String, Long> result = new TreeMap<>();
    try (Stream<Path> files = Files.list(directory)) {
      for (Path file : (Iterable<Path>) files::iterator) {
        String name = file.getFileName().toString();
        if (name.endsWith(".pid")) {
          result.put(name.substring(0, name.length() - 4), Long.parseLong(Files.readString(file).strip()));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read pid files in " + directory, e);
    }
    return result;
  }

  static void assertAllAlive(Map<String, Long> pids) {
    pids.forEach((name, pid) -> assertTrue(
        ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), name + " (pid " + pid + ") runs"));
  }

  static void assertAllDead(Map<String, Long> pids) {
    pids.forEach((name, pid) -> assertFalse(
        ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), name + " (pid " + pid + ") has stopped"));
  }
}
