package io.tidb.operator.controller.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.tidb.operator.api.v1alpha1.monitor.TidbMonitor;
import io.tidb.operator.testsupport.Await;
import io.tidb.operator.testsupport.ClusterAccess;
import io.tidb.operator.testsupport.LoopbackPorts;
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
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real Prometheus (upstream 2.53) loads the configuration generated for a monitor of cluster
 * {@code basic} and discovers, through the local control plane's API server, exactly that
 * cluster's scrape-annotated pods as targets, with upstream's job and instance labels, and none of
 * cluster {@code other}'s in the same namespace.
 *
 * <p>In a pod, Prometheus reaches the API server through its service account; here the test adds
 * {@code kubeconfig_file} to each generated {@code kubernetes_sd_configs} entry, the one change
 * made to the generated file (besides expanding the placeholders, as the monitor pod does).
 */
@WithLocalControlPlane
class PrometheusDiscoveryIT {

  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  private static final ObjectMapper JSON = new ObjectMapper();

  private static KubernetesClient admin;
  private static String ns;

  @BeforeAll
  static void pods(ClusterAccess access) {
    admin = access.newClient();
    ns = TestNamespaces.createUnique(admin, "prom-discovery");
    for (Pod p : List.of(pod("basic", "pd", 0, 2379, true), pod("basic", "pd", 1, 2379, true),
        pod("basic", "tikv", 0, 20180, true), pod("basic", "tidb", 0, 10080, false),
        pod("other", "pd", 0, 2379, true), pod("other", "tikv", 0, 20180, true))) {
      admin.resource(p).create();
    }
    Await.until("pods with IPs", Duration.ofSeconds(90),
        () -> admin.pods().inNamespace(ns).list().getItems(),
        pods -> pods.size() == 6 && pods.stream().allMatch(p -> p.getStatus() != null
            && p.getStatus().getPodIP() != null && !p.getStatus().getPodIP().isEmpty()));
  }

  @AfterAll
  static void cleanup() {
    if (admin != null) {
      admin.namespaces().withName(ns).delete();
      admin.close();
    }
  }

  private static Pod pod(String cluster, String component, int ordinal, int port, boolean scrape) {
    return new PodBuilder()
        .withNewMetadata()
            .withName(cluster + "-" + component + "-" + ordinal)
            .withNamespace(ns)
            .withLabels(Map.of("app.kubernetes.io/name", "tidb-cluster",
                "app.kubernetes.io/instance", cluster, "app.kubernetes.io/component", component,
                "app.kubernetes.io/managed-by", "tidb-operator"))
            .withAnnotations(Map.of("prometheus.io/scrape", Boolean.toString(scrape),
                "prometheus.io/port", Integer.toString(port), "prometheus.io/path", "/metrics"))
        .endMetadata()
        .withNewSpec().addNewContainer().withName(component).withImage("pingcap/" + component)
            .endContainer().endSpec()
        .build();
  }

  @Test
  void discoversExactlyTheMonitoredClustersPods(ClusterAccess access, @TempDir Path dir) throws Exception {
    TidbMonitor tm = MonitorManifests.named("namespaced__tidb-monitor.yaml");
    tm.getMetadata().setNamespace(ns);
    Path file = configFile(access, dir, tm, 0);
    int port = LoopbackPorts.free();
    Process prometheus = start(dir, file, port);
    try {
      HttpClient http = HttpClient.newHttpClient();
      JsonNode targets = Await.until("Prometheus discovers basic's 3 scrape-annotated pods",
          Duration.ofSeconds(90), () -> activeTargets(http, port),
          t -> t != null && t.size() == 3);
      Set<String> seen = new TreeSet<>();
      for (JsonNode t : targets) {
        JsonNode labels = t.get("labels");
        seen.add(labels.get("job").asText() + " " + labels.get("instance").asText() + " "
            + t.get("scrapeUrl").asText());
        assertEquals("basic", labels.get("cluster").asText());
        assertEquals(ns, labels.get("kubernetes_namespace").asText());
        assertEquals(ns + "-basic", labels.get("tidb_cluster").asText());
        assertEquals("$(NAMESPACE)_$(POD_NAME)".replace("$(NAMESPACE)", ns).replace("$(POD_NAME)", "basic-monitor-0"),
            prometheusExternalLabel(http, port));
      }
      assertEquals(new TreeSet<>(Set.of(
          ns + "-basic-pd basic-pd-0 http://basic-pd-0.basic-pd-peer." + ns + ":2379/metrics",
          ns + "-basic-pd basic-pd-1 http://basic-pd-1.basic-pd-peer." + ns + ":2379/metrics",
          ns + "-basic-tikv basic-tikv-0 http://basic-tikv-0.basic-tikv-peer." + ns + ":20180/metrics")),
          seen, "basic's pd and tikv pods; not basic-tidb-0 (not annotated for scraping), not other's");
    } finally {
      prometheus.destroy();
      prometheus.waitFor();
    }
  }

  @Test
  void shardsSplitTheTargetsWithoutOverlap(ClusterAccess access, @TempDir Path dir) throws Exception {
    TidbMonitor tm = MonitorManifests.named("monitor-shards__tidb-monitor.yaml");
    tm.getMetadata().setNamespace(ns);
    List<Process> shards = new java.util.ArrayList<>();
    List<Integer> ports = new java.util.ArrayList<>();
    try {
      for (int shard = 0; shard < 2; shard++) {
        Path shardDir = java.nio.file.Files.createDirectories(dir.resolve("shard-" + shard));
        int port = LoopbackPorts.free();
        ports.add(port);
        shards.add(start(shardDir, configFile(access, shardDir, tm, shard), port));
      }
      HttpClient http = HttpClient.newHttpClient();
      Set<String> all = new TreeSet<>();
      int total = 0;
      // Discovery settles within seconds; wait until the two shards together report all three.
      long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
      while (true) {
        all.clear();
        total = 0;
        for (int port : ports) {
          JsonNode t = activeTargets(http, port);
          if (t != null) {
            for (JsonNode target : t) {
              all.add(target.at("/labels/instance").asText());
              total++;
            }
          }
        }
        if (all.size() == 3 || System.nanoTime() > deadline) {
          break;
        }
        Thread.sleep(500);
      }
      assertEquals(Set.of("basic-pd-0", "basic-pd-1", "basic-tikv-0"), all, "every target on some shard");
      assertEquals(3, total, "no target on both shards");
    } finally {
      for (Process p : shards) {
        p.destroy();
        p.waitFor();
      }
    }
  }

  /** The generated configuration for one shard, as the pod expands it, with the test's API access. */
  private static Path configFile(ClusterAccess access, Path dir, TidbMonitor tm, int shard) throws IOException {
    String yaml = PrometheusConfigYaml.render(PrometheusConfigGenerator.generate(
        tm, List.of(new MonitoredCluster(ns, "basic", false)), List.of()));
    Path kubeconfig = Files.writeString(dir.resolve("kubeconfig"), access.kubeConfigYaml());
    JsonNode config = YAML.readTree(Promtool.expand(yaml, ns, "basic-monitor-0", shard));
    config.get("scrape_configs").forEach(job -> job.get("kubernetes_sd_configs")
        .forEach(sd -> ((ObjectNode) sd).put("kubeconfig_file", kubeconfig.toString())));
    Path file = dir.resolve("prometheus.yml");
    YAML.writeValue(file.toFile(), config);
    try {
      assertEquals(0, Promtool.run("check", "config", file.toString()).exit());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    }
    return file;
  }

  private static Process start(Path dir, Path config, int port) throws IOException {
    return new ProcessBuilder(Promtool.binary("prometheus").toString(),
        "--config.file=" + config, "--storage.tsdb.path=" + dir.resolve("data"),
        "--web.listen-address=127.0.0.1:" + port)
        .redirectErrorStream(true).redirectOutput(dir.resolve("prometheus.log").toFile()).start();
  }

  private static JsonNode activeTargets(HttpClient http, int port) {
    try {
      HttpResponse<String> r = http.send(HttpRequest.newBuilder(
          URI.create("http://127.0.0.1:" + port + "/api/v1/targets?state=active")).build(),
          HttpResponse.BodyHandlers.ofString());
      return r.statusCode() == 200 ? JSON.readTree(r.body()).at("/data/activeTargets") : null;
    } catch (IOException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }

  private static String prometheusExternalLabel(HttpClient http, int port) throws Exception {
    HttpResponse<String> r = http.send(HttpRequest.newBuilder(
        URI.create("http://127.0.0.1:" + port + "/api/v1/status/config")).build(),
        HttpResponse.BodyHandlers.ofString());
    JsonNode loaded = YAML.readTree(JSON.readTree(r.body()).at("/data/yaml").asText());
    return loaded.at("/global/external_labels/prometheus_replica").asText();
  }
}
