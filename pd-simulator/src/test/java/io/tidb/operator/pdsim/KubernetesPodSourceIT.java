package io.tidb.operator.pdsim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.tidb.operator.testsupport.Await;
import io.tidb.operator.testsupport.TestNamespaces;
import io.tidb.operator.testsupport.WithKubeApiServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Simulated clusters derived from pods on a real kube-apiserver: no kubelet runs, so the test
 * sets pod phases through the status subresource itself.
 */
@WithKubeApiServer
class KubernetesPodSourceIT {

  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  private final HttpClient http = HttpClient.newHttpClient();

  private static Pod pod(String namespace, String name, String component, String instance) {
    return new PodBuilder()
        .withNewMetadata()
        .withNamespace(namespace)
        .withName(name)
        .withLabels(Map.of(
            "app.kubernetes.io/component", component,
            "app.kubernetes.io/instance", instance,
            "app.kubernetes.io/managed-by", "tidb-operator",
            "app.kubernetes.io/name", "tidb-cluster"))
        .endMetadata()
        .withNewSpec()
        .addNewContainer().withName(component).withImage("pingcap/" + component + ":v8.5.1")
        .endContainer()
        .endSpec()
        .build();
  }

  private static void create(KubernetesClient client, Pod pod, String phase) {
    client.resource(pod).create();
    setPhase(client, pod, phase);
  }

  private static void setPhase(KubernetesClient client, Pod pod, String phase) {
    client.pods().inNamespace(pod.getMetadata().getNamespace())
        .withName(pod.getMetadata().getName())
        .editStatus(p -> new PodBuilder(p).editOrNewStatus().withPhase(phase).endStatus().build());
  }

  private JsonNode get(URI uri) throws Exception {
    HttpResponse<String> response = http.send(HttpRequest.newBuilder(uri).build(),
        HttpResponse.BodyHandlers.ofString());
    return response.statusCode() == 200 ? MAPPER.readTree(response.body()) : null;
  }

  private int status(String method, URI uri) throws Exception {
    return http.send(HttpRequest.newBuilder(uri).method(method, HttpRequest.BodyPublishers.noBody())
        .build(), HttpResponse.BodyHandlers.discarding()).statusCode();
  }

  @Test
  void membersStoresAndTidbFollowThePods(KubernetesClient client) throws Exception {
    String ns = TestNamespaces.createUnique(client, "pdsim");
    ClusterKey key = new ClusterKey(ns, "basic");
    SimulatedClusters clusters = new SimulatedClusters(
        SimulationSettings.defaults().withStepOnStoreRead(false), java.time.Clock.systemUTC(),
        new java.util.Random());
    try (KubernetesPodSource source = KubernetesPodSource.start(client, ns, clusters);
        PdSimulatorServer server = PdSimulatorServer.start(clusters)) {
      URI pd = server.pdUrl(key);

      create(client, pod(ns, "basic-tikv-0", "tikv", "basic"), "Running");
      create(client, pod(ns, "basic-pd-0", "pd", "basic"), "Pending");
      create(client, pod(ns, "other-pd-0", "pd", "other"), "Running");
      Await.until("PD pod of another cluster is a member there", TIMEOUT,
          () -> clusters.pd(new ClusterKey(ns, "other")).members().size(), n -> n == 1);
      assertEquals(503, status("GET", URI.create(pd + "/pd/api/v1/health")),
          "no PD pod of basic runs yet");

      for (int i = 1; i < 3; i++) {
        create(client, pod(ns, "basic-pd-" + i, "pd", "basic"), "Running");
      }
      setPhase(client, pod(ns, "basic-pd-0", "pd", "basic"), "Running");
      JsonNode health = Await.until("3 healthy PD members", TIMEOUT,
          () -> uncheckedGet(URI.create(pd + "/pd/api/v1/health")),
          h -> h != null && h.size() == 3 && h.findValues("health").stream()
              .allMatch(JsonNode::booleanValue));
      assertTrue(health.toString().contains("basic-pd-1.basic-pd-peer." + ns + ".svc:2379"));

      JsonNode stores = Await.until("the TiKV store joined once PD had a leader", TIMEOUT,
          () -> uncheckedGet(URI.create(pd + "/pd/api/v1/stores")),
          s -> s != null && s.get("count").intValue() == 1);
      assertEquals("basic-tikv-0.basic-tikv-peer." + ns + ".svc:20160",
          stores.at("/stores/0/store/address").textValue());

      for (int i = 1; i < 4; i++) {
        create(client, pod(ns, "basic-tikv-" + i, "tikv", "basic"), "Running");
      }
      Await.until("4 stores", TIMEOUT, () -> clusters.pd(key).stores().size(), n -> n == 4);
      long removed = clusters.pd(key).storeOfPod("basic-tikv-3").orElseThrow().id();
      assertEquals(200, status("DELETE", URI.create(pd + "/pd/api/v1/store/" + removed)));
      client.pods().inNamespace(ns).withName("basic-tikv-3").delete();
      Await.until("the Offline store of a deleted pod is Tombstone", TIMEOUT,
          () -> clusters.pd(key).store(removed).orElseThrow().state(),
          state -> state == SimulatedStoreState.TOMBSTONE);

      URI tidb = URI.create(server.tidbStatusUrl(key, "basic-tidb-0") + "/status");
      create(client, pod(ns, "basic-tidb-0", "tidb", "basic"), "Pending");
      Thread.sleep(500);
      assertEquals(503, status("GET", tidb), "a pending TiDB pod does not answer");
      setPhase(client, pod(ns, "basic-tidb-0", "tidb", "basic"), "Running");
      Await.until("TiDB status answers 200", TIMEOUT, () -> uncheckedStatus(tidb), s -> s == 200);

      client.pods().inNamespace(ns).withName("basic-pd-2").delete();
      Await.until("the member of a deleted PD pod is unhealthy", TIMEOUT,
          () -> clusters.pd(key).member("basic-pd-2").orElseThrow().healthy(), h -> !h);
      assertEquals("basic-pd-1", clusters.pd(key).leader().orElseThrow().name(),
          "the first PD pod that ran leads: basic-pd-0 was still Pending then");
    }
  }

  @Test
  void aTidbClusterReferencingAnotherJoinsItsPdWithoutBeingDeclared(KubernetesClient client)
      throws Exception {
    io.tidb.operator.testsupport.ProjectCrds.apply(client);
    String ns = TestNamespaces.createUnique(client, "pdsim-join");
    SimulatedClusters clusters = new SimulatedClusters(
        SimulationSettings.defaults().withStepOnStoreRead(false), java.time.Clock.systemUTC(),
        new java.util.Random());
    client.genericKubernetesResources("pingcap.com/v1alpha1", "TidbCluster").inNamespace(ns)
        .resource(new io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder()
            .withApiVersion("pingcap.com/v1alpha1").withKind("TidbCluster")
            .withNewMetadata().withName("joined").withNamespace(ns).endMetadata()
            .addToAdditionalProperties("spec", Map.of("version", "v8.5.1",
                "cluster", Map.of("name", "basic"),
                "pd", Map.of("replicas", 1, "requests", Map.of("storage", "1Gi"))))
            .build())
        .create();
    try (KubernetesPodSource source = KubernetesPodSource.start(client, ns, clusters);
        PdSimulatorServer server = PdSimulatorServer.start(clusters)) {
      Await.until("joined declared a member of basic's PD", TIMEOUT,
          () -> clusters.pdOwnerOf(new ClusterKey(ns, "joined")), k -> k.name().equals("basic"));
      create(client, pod(ns, "basic-pd-0", "pd", "basic"), "Running");
      create(client, pod(ns, "joined-pd-0", "pd", "joined"), "Running");
      Await.until("both PD pods are members of basic's PD cluster", TIMEOUT,
          () -> clusters.pd(new ClusterKey(ns, "basic")).members().size(), n -> n == 2);
      JsonNode members = Await.until("joined's PD Service answers with the shared members", TIMEOUT,
          () -> uncheckedGet(URI.create(server.pdUrl(new ClusterKey(ns, "joined"))
              + "/pd/api/v1/members")),
          m -> m != null && m.get("members").size() == 2);
      assertTrue(members.toString().contains(
          "http://joined-pd-0.joined-pd-peer." + ns + ".svc:2379"), members.toString());
      assertTrue(members.toString().contains(
          "http://basic-pd-0.basic-pd-peer." + ns + ".svc:2379"), members.toString());
    }
  }

  @Test
  void referencedPdIsSpecClusterInItsNamespaceOrTheClustersOwn() {
    var tc = new io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder()
        .withNewMetadata().withName("joined").withNamespace("a").endMetadata()
        .addToAdditionalProperties("spec", Map.of("cluster", Map.of("name", "basic")))
        .build();
    assertEquals(java.util.Optional.of(new ClusterKey("a", "basic")),
        KubernetesPodSource.referencedPd(tc));
    tc.getAdditionalProperties().put("spec",
        Map.of("cluster", Map.of("name", "basic", "namespace", "b")));
    assertEquals(java.util.Optional.of(new ClusterKey("b", "basic")),
        KubernetesPodSource.referencedPd(tc));
    tc.getAdditionalProperties().put("spec", Map.of("pd", Map.of("replicas", 3)));
    assertEquals(java.util.Optional.empty(), KubernetesPodSource.referencedPd(tc));
    tc.getAdditionalProperties().put("spec",
        Map.of("pdAddresses", java.util.List.of("http://basic-pd.b:2379")));
    assertEquals(java.util.Optional.of(new ClusterKey("b", "basic")),
        KubernetesPodSource.referencedPd(tc));
    assertEquals(java.util.Optional.of(new ClusterKey("a", "basic")),
        KubernetesPodSource.pdOfAddress("basic-pd:2379", "a"));
    assertEquals(java.util.Optional.of(new ClusterKey("c", "my-db")),
        KubernetesPodSource.pdOfAddress("https://my-db-pd-1.my-db-pd-peer.c.svc.cluster1.com:2379", "a"));
    assertEquals(java.util.Optional.of(new ClusterKey("c", "x")),
        KubernetesPodSource.pdOfAddress("http://x-pd-peer.c.svc:2379", "a"));
    assertEquals(java.util.Optional.empty(),
        KubernetesPodSource.pdOfAddress("http://10.0.0.7:2379", "a"), "an external PD is no cluster here");
  }

  private JsonNode uncheckedGet(URI uri) {
    try {
      return get(uri);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private int uncheckedStatus(URI uri) {
    try {
      return status("GET", uri);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
