package io.tidb.operator.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.tidb.operator.api.v1alpha1.monitor.TidbMonitor;
import io.tidb.operator.api.v1alpha1.shared.TidbClusterRef;
import io.tidb.operator.testsupport.Await;
import io.tidb.operator.testsupport.ClusterAccess;
import io.tidb.operator.testsupport.WithLocalControlPlane;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The TidbMonitor controller on the full local control plane (StatefulSet controller, kwok nodes,
 * garbage collector): its objects, clusters in two namespaces, a missing cluster, a change of the
 * monitored clusters, shards, TLS, and deletion.
 */
@WithLocalControlPlane
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TidbMonitorIT {

  private static MonitorHarness h;

  @BeforeAll
  static void start(ClusterAccess access) {
    h = new MonitorHarness(access, "monitor-it");
  }

  @AfterAll
  static void stop() {
    if (h != null) {
      h.close();
    }
  }

  private static <T extends HasMetadata> T object(Class<T> kind, String name) {
    T obj = Await.until(kind.getSimpleName() + " " + name, MonitorHarness.CONVERGE,
        () -> h.admin.resources(kind).inNamespace(h.ns).withName(name).get(), o -> o != null);
    assertNotNull(obj);
    return obj;
  }

  private static String prometheusYaml(String monitor) {
    return object(ConfigMap.class, monitor + "-monitor").getData().get("prometheus.yml");
  }

  private static void assertOwnedBy(HasMetadata obj, TidbMonitor tm) {
    assertEquals("TidbMonitor", obj.getMetadata().getOwnerReferences().get(0).getKind(), obj.getMetadata().getName());
    assertEquals(tm.getMetadata().getUid(), obj.getMetadata().getOwnerReferences().get(0).getUid());
    assertEquals("tidb-operator", obj.getMetadata().getLabels().get("app.kubernetes.io/managed-by"));
  }

  @Test
  @Order(1)
  void aMonitorOfOneClusterGetsItsStatefulSetServicesConfigMapsAndRbac() {
    h.cluster(h.ns, "basic", false);
    TidbMonitor tm = h.monitor("basic", "clusters: [{name: basic}]\n");
    TidbMonitor ready = h.await("basic", "Ready=True", m -> MonitorHarness.is(m, "Ready", "True"));
    assertEquals(List.of(h.ns + "/basic"), ready.getStatus().getClusters());
    assertEquals("Running", ready.getStatus().getPrometheus());
    assertEquals("Running", ready.getStatus().getGrafana());
    assertEquals(1, ready.getStatus().getStatefulSet().getReadyReplicas());
    assertTrue(MonitorHarness.is(ready, "ClustersFound", "True"));

    StatefulSet sts = object(StatefulSet.class, "basic-monitor");
    assertOwnedBy(sts, tm);
    assertEquals(List.of("prometheus", "reloader", "prometheus-config-reloader", "grafana"),
        sts.getSpec().getTemplate().getSpec().getContainers().stream().map(c -> c.getName()).toList());
    for (String svc : List.of("basic-prometheus", "basic-grafana", "basic-monitor-reloader")) {
      assertOwnedBy(object(Service.class, svc), tm);
    }
    assertOwnedBy(object(ConfigMap.class, "basic-monitor-grafana"), tm);
    assertOwnedBy(object(Secret.class, "basic-monitor"), tm);
    assertOwnedBy(object(Secret.class, "tidbmonitor-basic-tls-assets"), tm);
    assertOwnedBy(object(ServiceAccount.class, "basic-monitor"), tm);
    Role role = object(Role.class, "basic-monitor");
    assertEquals(List.of("pods"), role.getRules().get(0).getResources());
    assertEquals("basic-monitor", object(RoleBinding.class, "basic-monitor").getSubjects().get(0).getName());
    String yaml = prometheusYaml("basic");
    assertTrue(yaml.contains("job_name: " + h.ns + "-basic-pd"), yaml);
    assertTrue(yaml.contains("job_name: " + h.ns + "-basic-tikv"), yaml);
    assertTrue(h.events("basic").stream().anyMatch(e -> "SuccessfulCreate".equals(e.getReason())
        && e.getMessage().contains("StatefulSet basic-monitor")));
  }

  @Test
  @Order(2)
  void aMissingClusterIsAConditionAndAnEventAndItsCreationIsFollowed() {
    h.monitor("waiting", "clusters: [{name: later}]\n");
    TidbMonitor tm = h.await("waiting", "ClustersFound=False", m -> MonitorHarness.is(m, "ClustersFound", "False"));
    var found = MonitorHarness.condition(tm, "ClustersFound").orElseThrow();
    assertEquals("ClusterNotFound", found.getReason());
    assertTrue(found.getMessage().startsWith("TidbCluster " + h.ns + "/later not found"), found.getMessage());
    Await.until("Warning ClusterNotFound", MonitorHarness.CONVERGE, () -> h.events("waiting"),
        es -> es.stream().anyMatch(e -> "Warning".equals(e.getType()) && "ClusterNotFound".equals(e.getReason())));
    assertTrue(object(ConfigMap.class, "waiting-monitor").getData().get("prometheus.yml").contains("scrape_configs") == false);

    h.cluster(h.ns, "later", false);
    h.await("waiting", "ClustersFound=True", m -> MonitorHarness.is(m, "ClustersFound", "True"));
    Await.until("later's jobs", MonitorHarness.CONVERGE, () -> prometheusYaml("waiting"),
        y -> y.contains("job_name: " + h.ns + "-later-pd"));
  }

  @Test
  @Order(3)
  void clustersInTwoNamespacesWithAClusterRole() {
    h.cluster(h.other, "remote", false);
    h.monitor("multi", "clusterScoped: true\nclusters: [{name: basic}, {name: remote, namespace: " + h.other + "}]\n");
    h.await("multi", "Ready=True", m -> MonitorHarness.is(m, "Ready", "True"));
    String yaml = prometheusYaml("multi");
    assertTrue(yaml.contains("job_name: " + h.other + "-remote-tidb"), yaml);
    assertTrue(yaml.contains("- " + h.other), "discovery in the other namespace:\n" + yaml);
    ClusterRole role = h.admin.rbac().clusterRoles().withName(h.ns + "-multi-monitor").get();
    assertNotNull(role);
    assertEquals(h.ns + "/multi", role.getMetadata().getAnnotations().get("tidb.pingcap.com/tidbmonitor"));
    ClusterRoleBinding binding = h.admin.rbac().clusterRoleBindings().withName(h.ns + "-multi-monitor").get();
    assertEquals("multi-monitor", binding.getSubjects().get(0).getName());
    assertEquals(List.of(h.ns + "/basic", h.other + "/remote"), h.get("multi").getStatus().getClusters());
  }

  @Test
  @Order(4)
  void changingTheClustersRewritesTheConfigAndKeepsTheStatefulSet() {
    StatefulSet before = object(StatefulSet.class, "basic-monitor");
    h.edit("basic", m -> {
      List<TidbClusterRef> refs = new ArrayList<>(m.getSpec().getClusters());
      TidbClusterRef later = new TidbClusterRef();
      later.setName("later");
      refs.add(later);
      m.getSpec().setClusters(refs);
      return m;
    });
    Await.until("basic monitors later", MonitorHarness.CONVERGE, () -> prometheusYaml("basic"),
        y -> y.contains("job_name: " + h.ns + "-later-pd") && y.contains("job_name: " + h.ns + "-basic-pd"));
    h.await("basic", "Ready=True for the new generation", m -> MonitorHarness.is(m, "Ready", "True"));
    StatefulSet after = object(StatefulSet.class, "basic-monitor");
    assertEquals(before.getMetadata().getUid(), after.getMetadata().getUid(), "not recreated");
    assertEquals(before.getMetadata().getGeneration(), after.getMetadata().getGeneration(),
        "the config reloader reloads it: the pod template is unchanged");
    Await.until("ConfigChanged", MonitorHarness.CONVERGE, () -> h.events("basic"),
        es -> es.stream().anyMatch(e -> "ConfigChanged".equals(e.getReason())));
  }

  @Test
  @Order(5)
  void withoutAConfigReloaderANewConfigRollsThePods() {
    h.monitor("plain", "clusters: [{name: basic}]\n", m -> {
      m.getSpec().setPrometheusReloader(null);
      return m;
    });
    h.await("plain", "Ready=True", m -> MonitorHarness.is(m, "Ready", "True"));
    StatefulSet before = object(StatefulSet.class, "plain-monitor");
    String digest = before.getSpec().getTemplate().getMetadata().getAnnotations()
        .get("tidb.pingcap.com/prometheus-config-digest");
    assertNotNull(digest);
    h.edit("plain", m -> {
      m.getSpec().getClusters().get(0).setName("later");
      return m;
    });
    StatefulSet after = Await.until("a new digest", MonitorHarness.CONVERGE,
        () -> h.admin.apps().statefulSets().inNamespace(h.ns).withName("plain-monitor").get(),
        s -> !digest.equals(s.getSpec().getTemplate().getMetadata().getAnnotations()
            .get("tidb.pingcap.com/prometheus-config-digest")));
    assertEquals(before.getMetadata().getUid(), after.getMetadata().getUid());
  }

  @Test
  @Order(6)
  void shardsGetAStatefulSetAndServicesEach() {
    h.monitor("sharded", "shards: 2\nclusters: [{name: basic}]\n", m -> {
      m.getSpec().setGrafana(null);
      return m;
    });
    h.await("sharded", "Ready=True", m -> MonitorHarness.is(m, "Ready", "True"));
    object(StatefulSet.class, "sharded-monitor");
    StatefulSet shard1 = object(StatefulSet.class, "sharded-monitor-shard-1");
    assertEquals("1", shard1.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv().stream()
        .filter(e -> e.getName().equals("SHARD")).findFirst().orElseThrow().getValue());
    object(Service.class, "sharded-prometheus-shard-1");
    assertTrue(prometheusYaml("sharded").contains("modulus: 2"));
    assertEquals(null, h.get("sharded").getStatus().getGrafana());
  }

  @Test
  @Order(7)
  void aTlsClusterIsScrapedWithItsClientCertificate() {
    h.cluster(h.ns, "secure", true);
    h.monitor("secure", "clusters: [{name: secure}]\n");
    TidbMonitor waiting = h.await("secure", "Ready=False without the client secret",
        m -> MonitorHarness.condition(m, "Ready").map(c -> c.getMessage().contains("secure-cluster-client-secret")).orElse(false));
    assertEquals("False", MonitorHarness.condition(waiting, "Ready").orElseThrow().getStatus());
    String pem = Base64.getEncoder().encodeToString("-----BEGIN CERTIFICATE-----".getBytes());
    h.admin.resource(new SecretBuilder().withNewMetadata().withName("secure-cluster-client-secret")
        .withNamespace(h.ns).endMetadata()
        .withData(Map.of("ca.crt", pem, "tls.crt", pem, "tls.key", pem)).build()).create();
    h.edit("secure", m -> {
      m.getMetadata().setAnnotations(Map.of("touch", "1"));
      return m;
    });
    Secret assets = Await.until("TLS assets", MonitorHarness.CONVERGE,
        () -> h.admin.secrets().inNamespace(h.ns).withName("tidbmonitor-secure-tls-assets").get(),
        s -> s != null && s.getData() != null && s.getData().size() == 3);
    assertTrue(assets.getData().containsKey("secret_" + h.ns + "_secure-cluster-client-secret_tls.crt"));
    String yaml = prometheusYaml("secure");
    assertTrue(yaml.contains("scheme: https"), yaml);
    assertTrue(yaml.contains("cert_file: /var/lib/cluster-assets-tls/secret_" + h.ns + "_secure-cluster-client-secret_tls.crt"), yaml);
  }

  @Test
  @Order(8)
  void deletingAMonitorRemovesWhatItOwnsAndKeepsTheDataClaim() {
    h.monitor("persist", "clusters: [{name: basic}]\npersistent: true\nstorage: 1Gi\n");
    PersistentVolumeClaim claim = object(PersistentVolumeClaim.class, "tidbmonitor-persist-monitor-0");
    h.admin.resources(TidbMonitor.class).inNamespace(h.ns).withName("persist").delete();
    h.admin.resources(TidbMonitor.class).inNamespace(h.ns).withName("multi").delete();
    Await.until("persist and multi gone with their objects", MonitorHarness.CONVERGE, () -> List.of(
        h.get("persist") == null, h.get("multi") == null,
        h.admin.apps().statefulSets().inNamespace(h.ns).withName("persist-monitor").get() == null,
        h.admin.configMaps().inNamespace(h.ns).withName("multi-monitor").get() == null,
        h.admin.services().inNamespace(h.ns).withName("multi-prometheus").get() == null,
        h.admin.rbac().clusterRoles().withName(h.ns + "-multi-monitor").get() == null,
        h.admin.rbac().clusterRoleBindings().withName(h.ns + "-multi-monitor").get() == null),
        l -> l.stream().allMatch(b -> b));
    PersistentVolumeClaim kept = h.admin.persistentVolumeClaims().inNamespace(h.ns)
        .withName("tidbmonitor-persist-monitor-0").get();
    assertNotNull(kept, "the data claim outlives the monitor");
    assertEquals(claim.getMetadata().getUid(), kept.getMetadata().getUid());
  }
}
