package io.tidb.operator.testsupport;

import io.fabric8.kubeapitest.KubeAPIServer;
import io.fabric8.kubeapitest.KubeAPIServerConfigBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One etcd + kube-apiserver per JVM (fabric8 kube-api-test, offline, with the binaries from
 * hack/build-binaries.sh), started on first use and stopped when the JVM exits. No controllers run:
 * use it for schema validation, admission webhooks, RBAC and anything that needs only the API.
 *
 * <p>kube-api-test is configured in code: its environment-variable parsing for booleans and integers
 * throws in 7.5.2. Everything listens on 127.0.0.1 (see {@link LoopbackKubeApiTestDirectory}).
 */
public final class KubeApiServers {

  private static final Logger log = LoggerFactory.getLogger(KubeApiServers.class);
  private static final int STARTUP_TIMEOUT_MILLIS = 120_000;

  private static ClusterAccess shared;
  private static RuntimeException startupFailure;

  private KubeApiServers() {
  }

  /** The JVM's API server, started on the first call. */
  public static synchronized ClusterAccess shared() {
    if (startupFailure != null) {
      throw new IllegalStateException("the API server failed to start earlier in this JVM: "
          + startupFailure.getMessage(), startupFailure);
    }
    if (shared == null) {
      try {
        shared = start(KubernetesBinaries.fromEnvironment());
      } catch (RuntimeException e) {
        startupFailure = e;
        throw e;
      }
    }
    return shared;
  }

  private static ClusterAccess start(KubernetesBinaries binaries) {
    binaries.requirePresent("etcd", "kube-apiserver", "kubectl");
    Path testDir = createTempDirectory();
    LoopbackKubeApiTestDirectory.create(binaries, testDir);
    KubeAPIServer server = new KubeAPIServer(KubeAPIServerConfigBuilder.anAPIServerConfig()
        .withTestDir(testDir.toString())
        .withApiServerVersion(binaries.version())
        .withOfflineMode(true)
        .withUpdateKubeConfig(false)
        .withWaitForEtcdHealthCheckOnStartup(true)
        .withStartupTimeout(STARTUP_TIMEOUT_MILLIS)
        .withApiServerFlag("--bind-address", "127.0.0.1")
        .withApiServerFlag("--advertise-address", "127.0.0.1")
        .build());
    long started = System.nanoTime();
    try {
      server.start();
    } catch (RuntimeException e) {
      stopQuietly(server);
      deleteRecursively(testDir);
      throw new IllegalStateException("etcd + kube-apiserver " + binaries.version() + " from " + binaries.directory()
          + " did not start: " + e.getMessage() + " (their output is logged by io.fabric8.kubeapitest.process "
          + "at DEBUG)", e);
    }
    log.info("kube-apiserver started version={} testDir={} startupMillis={}", binaries.version(), testDir,
        (System.nanoTime() - started) / 1_000_000);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      server.stop();
      deleteRecursively(testDir);
    }, "kube-api-server-stop"));
    return new ClusterAccess(server.getKubeConfigYaml());
  }

  private static void stopQuietly(KubeAPIServer server) {
    try {
      server.stop();
    } catch (RuntimeException e) {
      log.warn("cannot stop the partly started API server error={}", e.toString());
    }
  }

  private static Path createTempDirectory() {
    try {
      return Files.createTempDirectory("tidb-operator-kube-api-test-");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void deleteRecursively(Path dir) {
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (IOException e) {
      log.warn("cannot delete dir={} error={}", dir, e.toString());
    }
  }
}
