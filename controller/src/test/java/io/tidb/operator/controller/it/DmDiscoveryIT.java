package io.tidb.operator.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.tidb.operator.api.v1alpha1.dm.DmCluster;
import io.tidb.operator.controller.tidbcluster.discovery.DiscoveryException;
import io.tidb.operator.controller.tidbcluster.discovery.DiscoveryHttpServer;
import io.tidb.operator.controller.tidbcluster.discovery.DiscoveryMain;
import io.tidb.operator.controller.tidbcluster.discovery.DiscoveryService;
import io.tidb.operator.controller.tidbcluster.discovery.DmDiscoveryService;
import io.tidb.operator.pdsim.ClusterKey;
import io.tidb.operator.pdsim.FaultRule;
import io.tidb.operator.testsupport.ClusterAccess;
import io.tidb.operator.testsupport.WithLocalControlPlane;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A DMCluster gets upstream's {@code <dc>-dm-discovery} (Deployment, Service, ServiceAccount,
 * Role, RoleBinding, owned by it), and the discovery process, reading the DMCluster as that
 * service account through the real API server and listing members from the DM simulator, answers
 * dm-master's {@code /new/<peer>/dm}: a member that lost its data joins the others; while dm-master
 * does not answer, the pod that completes the desired count bootstraps.
 */
@WithLocalControlPlane
class DmDiscoveryIT {

  private static DmHarness h;

  @BeforeAll
  static void start(ClusterAccess access) {
    h = new DmHarness(access, "dm-discovery-it");
  }

  @AfterAll
  static void stop() {
    if (h != null) {
      h.close();
    }
  }

  private static <T extends HasMetadata> T owned(Class<T> kind, DmCluster dc) {
    T o = h.admin.resources(kind).inNamespace(h.namespace).withName("basic-dm-discovery").get();
    assertEquals(dc.getMetadata().getUid(), o.getMetadata().getOwnerReferences().get(0).getUid(), kind.getSimpleName());
    assertEquals("discovery", o.getMetadata().getLabels().get("app.kubernetes.io/component"));
    return o;
  }

  private static String b64(String s) {
    return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8));
  }

  private static HttpResponse<String> ask(DiscoveryHttpServer server, int ordinal) throws Exception {
    String peer = "basic-dm-master-" + ordinal + ".basic-dm-master-peer:8291\n";
    return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
        "http://127.0.0.1:" + server.port() + "/new/" + b64(peer) + "/dm")).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void dmMastersBootstrapAndJoinThroughTheDmDiscovery() throws Exception {
    h.create("basic", """
        version: v8.5.7
        master: {replicas: 3, storageSize: 1Gi}
        """);
    DmCluster dc = h.awaitReady("basic");
    Deployment dep = owned(Deployment.class, dc);
    assertEquals("tidb-operator-java/controller:it", dep.getSpec().getTemplate().getSpec().getContainers().get(0).getImage());
    owned(Service.class, dc);
    owned(ServiceAccount.class, dc);
    owned(RoleBinding.class, dc);
    assertEquals(List.of("basic"), owned(Role.class, dc).getRules().get(0).getResourceNames());

    String account = "system:serviceaccount:" + h.namespace + ":basic-dm-discovery";
    try (KubernetesClient asDiscovery = new KubernetesClientBuilder().withConfig(
        new ConfigBuilder(h.admin.getConfiguration()).withImpersonateUsername(account)
            .withImpersonateGroups("system:serviceaccounts", "system:serviceaccounts:" + h.namespace,
                "system:authenticated").build()).build()) {
      DmDiscoveryService dm = DiscoveryMain.dmDiscovery(asDiscovery, h.namespace, "basic",
          view -> h.simulator.serviceUrl(new ClusterKey(view.namespace(), view.name())));
      DiscoveryService pd = new DiscoveryService(() -> {
        throw DiscoveryException.unavailable("no TidbCluster here", null);
      }, view -> List.of());
      try (DiscoveryHttpServer server = DiscoveryHttpServer.start(new InetSocketAddress("127.0.0.1", 0), pd, dm,
          java.util.Optional.empty())) {
        String domain = ".basic-dm-master-peer." + h.namespace + ".svc:8261";
        HttpResponse<String> rejoin = ask(server, 0);
        assertEquals(200, rejoin.statusCode(), rejoin.body());
        assertEquals("--join=http://basic-dm-master-1" + domain + ",http://basic-dm-master-2" + domain, rejoin.body());

        h.edit("basic", d -> {
          d.getSpec().setPaused(true);
          return d;
        });
        h.await("basic", "paused", d -> DmHarness.condition(d, "Ready")
            .filter(c -> "Paused".equals(c.getReason())).isPresent());
        h.simulator.faults().add(FaultRule.fail("/apis/v1alpha1/members", 503));
        HttpResponse<String> first = ask(server, 0);
        HttpResponse<String> second = ask(server, 1);
        HttpResponse<String> third = ask(server, 2);
        assertEquals(503, first.statusCode(), first.body());
        assertTrue(first.body().startsWith("cannot list the dm-master members of DMCluster " + h.namespace + "/basic"),
            first.body());
        assertEquals(503, second.statusCode(), second.body());
        assertEquals(200, third.statusCode(), third.body());
        assertEquals("--initial-cluster=basic-dm-master-2=http://basic-dm-master-2.basic-dm-master-peer:8291",
            third.body());
      }
      // The Role grants this DMCluster only: another one's discovery cannot read it.
      DmDiscoveryService other = DiscoveryMain.dmDiscovery(asDiscovery, h.namespace, "other",
          view -> h.simulator.serviceUrl(new ClusterKey(view.namespace(), view.name())));
      DiscoveryException forbidden = org.junit.jupiter.api.Assertions.assertThrows(DiscoveryException.class,
          () -> other.discover("other-dm-master-0.other-dm-master-peer:8291"));
      assertEquals(503, forbidden.status());
      assertTrue(forbidden.getMessage().contains("Forbidden") || forbidden.getMessage().contains("forbidden"),
          forbidden.getMessage());
    }
  }
}
