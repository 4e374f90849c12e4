package io.tidb.operator.controller.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.monitor.TidbMonitor;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class MonitorObjectsTest {

  private static StatefulSet sts(TidbMonitor tm, int shard) {
    return MonitorStatefulSet.build(tm, shard, null, null, "d1");
  }

  private static List<String> names(List<Container> cs) {
    return cs.stream().map(Container::getName).toList();
  }

  private static Container container(StatefulSet s, String name) {
    return s.getSpec().getTemplate().getSpec().getContainers().stream()
        .filter(c -> c.getName().equals(name)).findFirst().orElseThrow();
  }

  private static Optional<String> env(Container c, String name) {
    return c.getEnv().stream().filter(e -> e.getName().equals(name)).map(EnvVar::getValue).findFirst();
  }

  @Test
  void theStatefulSetHasUpstreamsContainersInOrder() {
    TidbMonitor tm = MonitorManifests.named("namespaced__tidb-monitor.yaml");
    StatefulSet s = sts(tm, 0);
    assertEquals("basic-monitor", s.getMetadata().getName());
    assertEquals("basic-monitor", s.getSpec().getServiceName());
    assertEquals(1, s.getSpec().getReplicas());
    assertEquals(List.of("monitor-initializer"), names(s.getSpec().getTemplate().getSpec().getInitContainers()));
    assertEquals(List.of("prometheus", "reloader", "prometheus-config-reloader", "grafana"),
        names(s.getSpec().getTemplate().getSpec().getContainers()));
    assertEquals("prom/prometheus:v2.27.1", container(s, "prometheus").getImage());
    assertEquals("IfNotPresent", container(s, "prometheus").getImagePullPolicy());
    assertEquals("basic-monitor", s.getSpec().getTemplate().getSpec().getServiceAccountName());
    assertEquals(Map.of("app.kubernetes.io/name", "tidb-cluster", "app.kubernetes.io/managed-by", "tidb-operator",
        "app.kubernetes.io/component", "monitor", "app.kubernetes.io/instance", "basic"),
        s.getSpec().getSelector().getMatchLabels());
    assertEquals("TidbMonitor", s.getMetadata().getOwnerReferences().get(0).getKind());
    assertEquals(List.of("monitor-data-is-an-emptyDir"),
        s.getSpec().getTemplate().getSpec().getVolumes().stream()
            .filter(v -> v.getName().equals("tidbmonitor") && v.getEmptyDir() != null)
            .map(v -> "monitor-data-is-an-emptyDir").toList());
    assertTrue(s.getSpec().getVolumeClaimTemplates() == null || s.getSpec().getVolumeClaimTemplates().isEmpty());
    // A config reloader runs, so a new configuration does not touch the pod template.
    assertNull(s.getSpec().getTemplate().getMetadata().getAnnotations());
    assertEquals("tidb:v8.5.7", env(s.getSpec().getTemplate().getSpec().getInitContainers().get(0), "TIDB_VERSION").orElseThrow());
  }

  @Test
  void withoutAConfigReloaderTheConfigDigestRollsThePods() {
    TidbMonitor tm = MonitorManifests.named("advanced__tidb-monitor.yaml");
    assertEquals("d1", sts(tm, 0).getSpec().getTemplate().getMetadata().getAnnotations()
        .get(MonitorStatefulSet.CONFIG_DIGEST_ANNOTATION));
    assertNotEquals(sts(tm, 0), MonitorStatefulSet.build(tm, 0, null, null, "d2"));
  }

  @Test
  void persistentStorageIsAClaimTemplateAndRetentionComesFromReserveDays() {
    TidbMonitor tm = MonitorManifests.named("advanced__tidb-monitor.yaml");
    StatefulSet s = sts(tm, 0);
    assertEquals("tidbmonitor", s.getSpec().getVolumeClaimTemplates().get(0).getMetadata().getName());
    assertEquals("10G", s.getSpec().getVolumeClaimTemplates().get(0).getSpec().getResources().getRequests()
        .get("storage").toString());
    assertTrue(s.getSpec().getTemplate().getSpec().getVolumes().stream().noneMatch(v -> v.getName().equals("tidbmonitor")));
    String cmd = container(s, "prometheus").getCommand().get(2);
    assertTrue(cmd.contains("--storage.tsdb.retention.time=12d"), cmd);
    assertTrue(cmd.contains("--log.level=info"), cmd);
    assertEquals("basic-grafana", container(s, "grafana").getEnv().stream()
        .filter(e -> e.getName().equals("GF_SECURITY_ADMIN_USER")).findFirst().orElseThrow()
        .getValueFrom().getSecretKeyRef().getName());
  }

  @Test
  void retentionTimeWinsOverReserveDays() {
    TidbMonitor tm = MonitorManifests.named("advanced__tidb-monitor.yaml");
    tm.getSpec().getPrometheus().setRetentionTime("36h");
    String cmd = container(sts(tm, 0), "prometheus").getCommand().get(2);
    assertTrue(cmd.contains("--storage.tsdb.retention.time=36h"), cmd);
    assertFalse(cmd.contains("12d"), cmd);
  }

  @Test
  void shardsGetTheirOwnStatefulSetServicesAndShardNumber() {
    TidbMonitor tm = MonitorManifests.named("monitor-shards__tidb-monitor.yaml");
    StatefulSet s1 = sts(tm, 1);
    assertEquals("basic-monitor-shard-1", s1.getMetadata().getName());
    assertEquals("basic-shard-1", s1.getSpec().getSelector().getMatchLabels().get("app.kubernetes.io/instance"));
    assertEquals("1", env(container(s1, "prometheus"), "SHARD").orElseThrow());
    assertEquals(List.of("basic-prometheus", "basic-monitor-reloader", "basic-prometheus-shard-1",
        "basic-monitor-reloader-shard-1"), MonitorObjects.services(tm).stream().map(x -> x.getMetadata().getName()).toList());
    Service prom1 = MonitorObjects.services(tm).get(2);
    assertEquals("basic-shard-1", prom1.getSpec().getSelector().get("app.kubernetes.io/instance"));
    assertEquals(9090, prom1.getSpec().getPorts().get(0).getPort());
  }

  @Test
  void thanosAddsTheSidecarCompactionFlagsAndPorts() {
    TidbMonitor tm = MonitorManifests.named("monitor-with-thanos__tidb-monitor-with-additional-volumes.yaml");
    StatefulSet s = sts(tm, 0);
    Container thanos = container(s, "thanos-sidecar");
    assertEquals("thanosio/thanos:v0.17.2", thanos.getImage());
    assertTrue(thanos.getArgs().contains("--objstore.config-file=/etc/thanos/objectstorage.yaml"));
    assertTrue(thanos.getArgs().contains("--tsdb.path=/data/prometheus"));
    assertTrue(container(s, "prometheus").getCommand().get(2).contains("--storage.tsdb.min-block-duration=2h"));
    assertTrue(s.getSpec().getTemplate().getSpec().getVolumes().stream().map(Volume::getName).toList().contains("objectstorage"));
    assertEquals(List.of("http-prometheus", "thanos-grpc", "thanos-http"),
        MonitorObjects.services(tm).get(0).getSpec().getPorts().stream().map(p -> p.getName()).toList());
  }

  @Test
  void additionalContainersAreAddedOrMergedByName() {
    TidbMonitor tm = MonitorManifests.named("podpatch__tidb-monitor.yaml");
    assertEquals(List.of("prometheus", "reloader", "prometheus-config-reloader", "test", "grafana"),
        names(sts(tm, 0).getSpec().getTemplate().getSpec().getContainers()));
    tm.getSpec().getAdditionalContainers().get(0).setName("prometheus");
    StatefulSet s = sts(tm, 0);
    assertEquals("busybox:1.34.1", container(s, "prometheus").getImage());
    assertEquals(List.of("prometheus", "reloader", "prometheus-config-reloader", "grafana"),
        names(s.getSpec().getTemplate().getSpec().getContainers()));
  }

  @Test
  void noGrafanaNoGrafanaObjects() {
    TidbMonitor tm = MonitorManifests.named("monitor-shards__tidb-monitor.yaml");
    assertTrue(names(sts(tm, 0).getSpec().getTemplate().getSpec().getContainers()).stream().noneMatch("grafana"::equals));
    String init = sts(tm, 0).getSpec().getTemplate().getSpec().getInitContainers().get(0).getCommand().get(2);
    assertEquals("mkdir -p /data/prometheus\nchmod 777 /data/prometheus\n/usr/bin/init.sh", init);
  }

  @Test
  void theInitializerTakesTheFirstClustersSettings() {
    TidbMonitor tm = MonitorManifests.named("namespaced__tidb-monitor.yaml");
    TidbCluster tc = ApiObjects.parse("""
        apiVersion: pingcap.com/v1alpha1
        kind: TidbCluster
        metadata: {name: basic, namespace: ns}
        spec: {timezone: Asia/Shanghai, pump: {replicas: 1}}
        """, TidbCluster.class);
    Container init = MonitorStatefulSet.build(tm, 0, tc, null, "d").getSpec().getTemplate().getSpec()
        .getInitContainers().get(0);
    assertEquals("Asia/Shanghai", env(init, "TZ").orElseThrow());
    assertEquals("true", env(init, "TIDB_ENABLE_BINLOG").orElseThrow());
    assertEquals("basic", env(init, "TIDB_CLUSTER_NAME").orElseThrow());
    assertEquals("/etc/grafana/provisioning/datasources", env(init, "GF_DATASOURCE_PATH").orElseThrow());
  }

  @Test
  void dmAddsItsInitializer() {
    TidbMonitor tm = MonitorManifests.named("dm__dm-monitor.yaml");
    StatefulSet s = MonitorStatefulSet.build(tm, 0, null, new MonitoredCluster("ns", "basic", false), "d");
    assertEquals(List.of("monitor-initializer", "dm-initializer"), names(s.getSpec().getTemplate().getSpec().getInitContainers()));
  }

  @Test
  void noAutomountedTokenMountsAProjectedOneEverywhere() {
    TidbMonitor tm = MonitorManifests.named("namespaced__tidb-monitor.yaml");
    tm.getSpec().setAutomountServiceAccountToken(false);
    StatefulSet s = sts(tm, 0);
    assertTrue(s.getSpec().getTemplate().getSpec().getContainers().stream().allMatch(c -> c.getVolumeMounts().stream()
        .anyMatch(m -> m.getMountPath().equals(ServiceAccountToken.PATH))));
    assertEquals(false, MonitorObjects.serviceAccount(tm).getAutomountServiceAccountToken());
  }

  @Test
  void rbacGrantsOnlyPodDiscovery() {
    TidbMonitor tm = MonitorManifests.named("monitor-dynamic-configmap__tidb-monitor.yaml");
    assertEquals(List.of("get", "list", "watch"), MonitorObjects.role(tm).getRules().get(0).getVerbs());
    assertEquals(List.of("pods"), MonitorObjects.clusterRole(tm).getRules().get(0).getResources());
    assertEquals("ns-monitor-monitor", MonitorObjects.clusterRoleBinding(tm).getMetadata().getName());
    assertEquals("ns/monitor", MonitorObjects.clusterRole(tm).getMetadata().getAnnotations().get(MonitorLabels.OWNER_ANNOTATION));
    assertEquals("monitor-monitor", MonitorObjects.clusterRoleBinding(tm).getSubjects().get(0).getName());
  }

  @Test
  void servicesFollowTheirSpec() {
    TidbMonitor tm = MonitorManifests.named("gcp__tidb-monitor.yaml");
    tm.getSpec().getGrafana().getService().setLoadBalancerSourceRanges(List.of("10.0.0.0/8"));
    List<Service> svcs = MonitorObjects.services(tm);
    assertEquals("NodePort", svcs.get(0).getSpec().getType());
    assertEquals("tcp-reloader", svcs.get(1).getSpec().getPorts().get(0).getName());
    assertEquals("LoadBalancer", svcs.get(2).getSpec().getType());
    assertEquals(List.of("10.0.0.0/8"), svcs.get(2).getSpec().getLoadBalancerSourceRanges());
    assertEquals("grafana", svcs.get(2).getMetadata().getLabels().get("app.kubernetes.io/used-by"));
  }

  @Test
  void theGrafanaProviderPointsAtTheInitializersDashboards() {
    TidbMonitor tm = MonitorManifests.named("namespaced__tidb-monitor.yaml");
    var tree = ApiObjects.parse(MonitorObjects.grafanaConfigMap(tm).getData().get("dashboards.yaml"),
        com.fasterxml.jackson.databind.JsonNode.class);
    assertEquals("/grafana-dashboard-definitions/tidb", tree.at("/providers/0/options/path").asText());
    assertEquals(1, tree.get("apiVersion").asInt());
  }

  @Test
  void ingressRoutesToTheFirstShardsService() {
    TidbMonitor tm = MonitorManifests.named("namespaced__tidb-monitor.yaml");
    var ingress = new io.tidb.operator.api.v1alpha1.monitor.IngressSpec();
    ingress.setHosts(List.of("grafana.example.com"));
    tm.getSpec().getGrafana().setIngress(ingress);
    var list = MonitorObjects.ingresses(tm);
    assertEquals(1, list.size());
    assertEquals("basic-grafana", list.get(0).getSpec().getRules().get(0).getHttp().getPaths().get(0)
        .getBackend().getService().getName());
  }
}
