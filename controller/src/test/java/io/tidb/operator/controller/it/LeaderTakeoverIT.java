package io.tidb.operator.controller.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.controller.ControllerMain;
import io.tidb.operator.testsupport.Await;
import io.tidb.operator.testsupport.ClusterAccess;
import io.tidb.operator.testsupport.LoopbackPorts;
import io.tidb.operator.testsupport.ProjectCrds;
import io.tidb.operator.testsupport.TestNamespaces;
import io.tidb.operator.testsupport.WithLocalControlPlane;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Two controller processes ({@code ControllerMain}, as two replicas of the Deployment) elect a
 * leader on a Lease. The leader is SIGKILLed, so it never releases the Lease: the standby holds it
 * once it has expired, and reconciles a TidbCluster created after the kill, within 15 s of the
 * kill.
 */
@WithLocalControlPlane
class LeaderTakeoverIT {

  private static final String LEASE = "takeover-controller";
  private static final Duration TAKEOVER = Duration.ofSeconds(15);
  private static final Duration STARTUP = Duration.ofSeconds(60);
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private KubernetesClient admin;
  private String namespace;
  private Path kubeconfig;
  private final Map<String, Process> replicas = new LinkedHashMap<>();

  @AfterEach
  void stop() throws IOException {
    replicas.values().forEach(Process::destroyForcibly);
    if (admin != null) {
      admin.namespaces().withName(namespace).delete();
      admin.close();
    }
    if (kubeconfig != null) {
      Files.deleteIfExists(kubeconfig);
    }
  }

  @Test
  void theStandbyLeadsAndReconcilesWithin15SecondsOfTheLeadersSigkill(ClusterAccess access)
      throws Exception {
    admin = access.newClient();
    ProjectCrds.apply(admin);
    namespace = TestNamespaces.createUnique(admin, "takeover");
    kubeconfig = Files.createTempFile("takeover-kubeconfig", ".yaml");
    Files.writeString(kubeconfig, access.kubeConfigYaml());
    Map<String, Integer> ports = Map.of("replica-a", LoopbackPorts.free(), "replica-b", LoopbackPorts.free());
    for (String identity : List.of("replica-a", "replica-b")) {
      replicas.put(identity, start(identity, ports.get(identity)));
    }
    replicas.keySet().forEach(identity -> awaitReadyz(identity, ports.get(identity)));

    String leader = Await.until("a replica to hold Lease " + LEASE, STARTUP, this::holder,
        h -> h.filter(replicas::containsKey).isPresent()).orElseThrow();
    String standby = replicas.keySet().stream().filter(r -> !r.equals(leader)).findFirst().orElseThrow();
    create("before");
    awaitStatefulSet("before-pd", STARTUP);

    long killedAt = System.nanoTime();
    replicas.get(leader).destroyForcibly();
    create("after");
    Await.until("Lease " + LEASE + " held by " + standby, TAKEOVER.multipliedBy(2), this::holder,
        h -> h.filter(standby::equals).isPresent());
    double leading = secondsSince(killedAt);
    awaitStatefulSet("after-pd", TAKEOVER.multipliedBy(2));
    double reconciled = secondsSince(killedAt);

    System.out.printf(
        "LeaderTakeoverIT: %s SIGKILLed; %s held the Lease after %.1f s and had reconciled a new"
            + " TidbCluster after %.1f s%n",
        leader, standby, leading, reconciled);
    assertTrue(reconciled <= TAKEOVER.toSeconds(),
        "the standby reconciles within " + TAKEOVER.toSeconds() + " s of the leader's SIGKILL,"
            + " took " + reconciled + " s (Lease after " + leading + " s)");
  }

  private Process start(String identity, int port) throws IOException {
    Path log = Files.createTempFile("takeover-" + identity + "-", ".log");
    System.out.println("LeaderTakeoverIT: " + identity + " logs to " + log);
    return new ProcessBuilder(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp", System.getProperty("java.class.path"),
            "-Dorg.slf4j.simpleLogger.showDateTime=true",
            ControllerMain.class.getName(),
            "--kubeconfig=" + kubeconfig,
            "--watch-namespaces=" + namespace,
            "--leader-election",
            "--leader-election-namespace=" + namespace,
            "--leader-election-lease=" + LEASE,
            "--identity=" + identity,
            "--bind=127.0.0.1",
            "--port=" + port,
            "--pd-url-template=http://127.0.0.1:1/clusters/{namespace}/{name}")
        .redirectErrorStream(true)
        .redirectOutput(log.toFile())
        .start();
  }

  /** {@code /readyz} answers once the operator has started: a standby is then trying to acquire. */
  private void awaitReadyz(String identity, int port) {
    Process process = replicas.get(identity);
    Await.until(identity + " /readyz 200", STARTUP, () -> {
      if (!process.isAlive()) {
        throw new AssertionError(identity + " exited with " + process.exitValue());
      }
      try {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/readyz")).build(),
            HttpResponse.BodyHandlers.discarding()).statusCode();
      } catch (IOException notYet) {
        return 0;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }, code -> code == 200);
  }

  private Optional<String> holder() {
    Lease lease = admin.leases().inNamespace(namespace).withName(LEASE).get();
    return Optional.ofNullable(lease).map(l -> l.getSpec().getHolderIdentity());
  }

  private void create(String name) {
    TidbCluster tc = Fixtures.small(name, null);
    tc.getMetadata().setNamespace(namespace);
    admin.resource(tc).create();
  }

  private void awaitStatefulSet(String name, Duration timeout) {
    Await.until("StatefulSet " + name, timeout,
        () -> admin.apps().statefulSets().inNamespace(namespace).withName(name).get(),
        sts -> sts != null);
  }

  private static double secondsSince(long nanos) {
    return (System.nanoTime() - nanos) / 1e9;
  }
}
