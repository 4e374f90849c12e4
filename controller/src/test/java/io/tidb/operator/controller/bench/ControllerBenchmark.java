package io.tidb.operator.controller.bench;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.pdsim.KubernetesPodSource;
import io.tidb.operator.pdsim.PdSimulatorServer;
import io.tidb.operator.pdsim.SimulatedClusters;
import io.tidb.operator.testsupport.ClusterAccess;
import io.tidb.operator.testsupport.LocalControlPlane;
import io.tidb.operator.testsupport.LoopbackPorts;
import io.tidb.operator.testsupport.ProcessMemory;
import io.tidb.operator.testsupport.ProjectCrds;
import io.tidb.operator.testsupport.ProjectDirectory;
import io.tidb.operator.testsupport.TestNamespaces;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Prints the controller's figures on the local control plane with the PD simulator: time from
 * apply to Ready for N clusters, Kubernetes API requests per reconcile (while converging and once
 * settled), and the controller's heap and RSS. The controller runs as its own process
 * ({@code ControllerMain}), as in production, so its memory is its own.
 *
 * <p>Usage (from the repository root, binaries built by hack/build-binaries.sh):
 *
 * <pre>
 * mvn -B -o -q -pl controller test-compile dependency:build-classpath -Dmdep.outputFile=target/bench.cp
 * java -cp controller/target/test-classes:controller/target/classes:$(cat controller/target/bench.cp) \
 *   io.tidb.operator.controller.bench.ControllerBenchmark [--shape basic|small] [--settle-seconds 65] 1 10 50
 * </pre>
 */
public final class ControllerBenchmark {

  private static final Duration READY_TIMEOUT = Duration.ofMinutes(30);
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private record Run(
      int clusters,
      double firstReadySeconds,
      double medianReadySeconds,
      double allReadySeconds,
      Map<String, Double> convergeRequests,
      double convergeReconciles,
      Map<String, Double> settledRequests,
      double settledReconciles,
      double heapMiB,
      double rssMiB) {}

  public static void main(String[] args) throws Exception {
    String shape = "basic";
    int settleSeconds = 65;
    List<Integer> sizes = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--shape" -> shape = args[++i];
        case "--settle-seconds" -> settleSeconds = Integer.parseInt(args[++i]);
        default -> sizes.add(Integer.parseInt(args[i]));
      }
    }
    if (sizes.isEmpty()) {
      sizes = List.of(1, 10, 50);
    }
    ClusterAccess access = LocalControlPlane.shared();
    Path kubeconfig = Files.createTempFile("bench-kubeconfig", ".yaml");
    Files.writeString(kubeconfig, access.kubeConfigYaml());
    List<Run> runs = new ArrayList<>();
    try (KubernetesClient admin = access.newClient();
        KubernetesClient simClient = access.newClient()) {
      ProjectCrds.apply(admin);
      SimulatedClusters clusters = new SimulatedClusters();
      try (KubernetesPodSource pods = KubernetesPodSource.start(simClient, null, clusters);
          PdSimulatorServer sim = PdSimulatorServer.start(clusters)) {
        sim.stepEvery(Duration.ofMillis(500));
        for (int n : sizes) {
          runs.add(run(admin, kubeconfig, sim, n, shape, settleSeconds));
          print(runs.get(runs.size() - 1), shape, settleSeconds);
        }
      }
    } finally {
      Files.deleteIfExists(kubeconfig);
    }
    System.out.println();
    System.out.println("| clusters | first Ready (s) | median Ready (s) | all Ready (s) | requests/reconcile converging (get / watch / write) | requests/reconcile settled (get / watch / write) | heap used (MiB) | RSS (MiB) |");
    System.out.println("|---|---|---|---|---|---|---|---|");
    for (Run r : runs) {
      System.out.printf(
          "| %d | %.1f | %.1f | %.1f | %s | %s | %.0f | %.0f |%n",
          r.clusters(), r.firstReadySeconds(), r.medianReadySeconds(), r.allReadySeconds(),
          perReconcile(r.convergeRequests(), r.convergeReconciles()),
          perReconcile(r.settledRequests(), r.settledReconciles()),
          r.heapMiB(), r.rssMiB());
    }
    System.exit(0);
  }

  private static Run run(
      KubernetesClient admin, Path kubeconfig, PdSimulatorServer sim, int n, String shape,
      int settleSeconds)
      throws Exception {
    String ns = TestNamespaces.createUnique(admin, "bench-" + n);
    int port = LoopbackPorts.free();
    Process controller = startController(kubeconfig, sim, ns, port);
    try {
      awaitReadyz(port, controller);
      long start = System.nanoTime();
      for (int i = 0; i < n; i++) {
        TidbCluster tc = cluster("bench-" + i, shape);
        tc.getMetadata().setNamespace(ns);
        admin.resource(tc).create();
      }
      Map<String, Double> readyAt = new HashMap<>();
      long deadline = start + READY_TIMEOUT.toNanos();
      while (readyAt.size() < n) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException(
              "only " + readyAt.size() + " of " + n + " clusters Ready after " + READY_TIMEOUT);
        }
        if (!controller.isAlive()) {
          throw new IllegalStateException("the controller exited with " + controller.exitValue());
        }
        double now = (System.nanoTime() - start) / 1e9;
        for (TidbCluster tc :
            admin.resources(TidbCluster.class).inNamespace(ns).list().getItems()) {
          if (isReady(tc)) {
            readyAt.putIfAbsent(tc.getMetadata().getName(), now);
          }
        }
        Thread.sleep(250);
      }
      double[] times = readyAt.values().stream().mapToDouble(Double::doubleValue).sorted().toArray();
      PrometheusText atReady = scrape(port);
      Thread.sleep(settleSeconds * 1000L);
      PrometheusText settled = scrape(port);
      return new Run(
          n,
          times[0],
          times[times.length / 2],
          times[times.length - 1],
          requests(atReady),
          atReady.sum("tidb_operator_reconciles_total"),
          minus(requests(settled), requests(atReady)),
          settled.sum("tidb_operator_reconciles_total") - atReady.sum("tidb_operator_reconciles_total"),
          settled.sum("jvm_memory_used_bytes", Map.of("area", "heap")) / (1024 * 1024),
          ProcessMemory.rssKiB(controller.pid()) / 1024.0);
    } finally {
      controller.destroy();
      controller.waitFor();
      admin.namespaces().withName(ns).delete();
    }
  }

  private static TidbCluster cluster(String name, String shape) throws IOException {
    String yaml =
        Files.readString(ProjectDirectory.root().resolve("examples/basic-tidb-cluster.yaml"));
    TidbCluster tc = ApiObjects.parse(yaml, TidbCluster.class);
    tc.getMetadata().setName(name);
    if ("small".equals(shape)) {
      tc.getSpec().getPd().setReplicas(1);
      tc.getSpec().getTikv().setReplicas(1);
      tc.getSpec().getTidb().setReplicas(1);
    } else if (!"basic".equals(shape)) {
      throw new IllegalArgumentException("--shape: Unsupported value: \"" + shape + "\": basic or small");
    }
    return tc;
  }

  private static boolean isReady(TidbCluster tc) {
    return tc.getStatus() != null
        && tc.getStatus().getConditions() != null
        && tc.getStatus().getConditions().stream()
            .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
  }

  private static Process startController(Path kubeconfig, PdSimulatorServer sim, String ns, int port)
      throws IOException {
    Path log = Files.createTempFile("bench-controller-", ".log");
    System.out.println("controller log: " + log);
    return new ProcessBuilder(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp", System.getProperty("java.class.path"),
            "io.tidb.operator.controller.ControllerMain",
            "--kubeconfig=" + kubeconfig,
            "--watch-namespaces=" + ns,
            "--bind=127.0.0.1",
            "--port=" + port,
            "--pd-url-template=" + sim.pdUrlTemplate(),
            "--tidb-status-url-template=" + sim.tidbStatusUrlTemplate(),
            "--log-level=warn")
        .redirectErrorStream(true)
        .redirectOutput(log.toFile())
        .start();
  }

  private static void awaitReadyz(int port, Process controller) throws Exception {
    long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
    while (System.nanoTime() < deadline && controller.isAlive()) {
      try {
        if (get(port, "/readyz").statusCode() == 200) {
          return;
        }
      } catch (IOException notYet) {
        // still starting
      }
      Thread.sleep(200);
    }
    throw new IllegalStateException("the controller did not answer /readyz");
  }

  private static HttpResponse<String> get(int port, String path) throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static PrometheusText scrape(int port) throws Exception {
    return PrometheusText.parse(get(port, "/metrics").body());
  }

  private static Map<String, Double> requests(PrometheusText m) {
    Map<String, Double> byKind = new HashMap<>();
    byKind.put("get", m.sum("tidb_operator_kube_api_requests_total", Map.of("verb", "get")));
    byKind.put("watch", m.sum("tidb_operator_kube_api_requests_total", Map.of("verb", "watch")));
    double writes = 0;
    for (String verb : List.of("create", "update", "patch", "delete")) {
      writes += m.sum("tidb_operator_kube_api_requests_total", Map.of("verb", verb));
    }
    byKind.put("write", writes);
    return byKind;
  }

  private static Map<String, Double> minus(Map<String, Double> a, Map<String, Double> b) {
    Map<String, Double> d = new HashMap<>();
    a.forEach((k, v) -> d.put(k, v - b.getOrDefault(k, 0.0)));
    return d;
  }

  private static String perReconcile(Map<String, Double> requests, double reconciles) {
    if (reconciles == 0) {
      return "no reconcile";
    }
    return String.format(
        "%.2f / %.2f / %.2f (%d reconciles)",
        requests.get("get") / reconciles,
        requests.get("watch") / reconciles,
        requests.get("write") / reconciles,
        (long) reconciles);
  }



  private static void print(Run r, String shape, int settleSeconds) {
    System.out.printf(
        "clusters=%d shape=%s firstReady=%.1fs medianReady=%.1fs allReady=%.1fs converging=%s settled(%ds)=%s heap=%.0fMiB rss=%.0fMiB%n",
        r.clusters(), shape, r.firstReadySeconds(), r.medianReadySeconds(), r.allReadySeconds(),
        perReconcile(r.convergeRequests(), r.convergeReconciles()), settleSeconds,
        perReconcile(r.settledRequests(), r.settledReconciles()), r.heapMiB(), r.rssMiB());
  }
}
