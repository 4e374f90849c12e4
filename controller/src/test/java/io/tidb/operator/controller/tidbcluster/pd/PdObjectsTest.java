package io.tidb.operator.controller.tidbcluster.pd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.tidb.operator.api.v1alpha1.cluster.ComponentConfig;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.controller.fixtures.Golden;
import io.tidb.operator.controller.fixtures.TestClusters;
import io.tidb.operator.controller.tidbcluster.member.Labels;
import io.tidb.operator.controller.tidbcluster.member.StatefulSetPlan;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterAddresses;
import io.tidb.operator.controller.tidbcluster.tikv.TikvObjects;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PdObjectsTest {

  @ParameterizedTest
  @ValueSource(strings = {"basic", "advanced", "full"})
  void matchesGoldenObjects(String name) {
    TidbCluster tc = TestClusters.load(name);
    ConfigMap cm = PdObjects.configMap(tc, Optional.empty());
    Golden.assertYaml(name + "/pd-service.yaml", PdObjects.clientService(tc));
    Golden.assertYaml(name + "/pd-peer-service.yaml", PdObjects.peerService(tc));
    Golden.assertYaml(name + "/pd-configmap.yaml", cm);
    Golden.assertYaml(name + "/pd-statefulset.yaml", PdObjects.statefulSet(tc, cm, new StatefulSetPlan(3, 2)));
  }

  @Test
  void clientServiceServesPort2379NamedClientForThePdPods() {
    Service svc = PdObjects.clientService(TestClusters.load("basic"));
    assertEquals("basic-pd", svc.getMetadata().getName());
    assertEquals("ClusterIP", svc.getSpec().getType());
    assertEquals(2379, svc.getSpec().getPorts().get(0).getPort());
    assertEquals("client", svc.getSpec().getPorts().get(0).getName());
    assertEquals(Map.of(
        "app.kubernetes.io/name", "tidb-cluster",
        "app.kubernetes.io/managed-by", "tidb-operator",
        "app.kubernetes.io/instance", "basic",
        "app.kubernetes.io/component", "pd"), svc.getSpec().getSelector());
    assertEquals("end-user", svc.getMetadata().getLabels().get("app.kubernetes.io/used-by"));
  }

  @Test
  void clientServiceHonorsServiceOverrides() {
    Service svc = PdObjects.clientService(TestClusters.load("full"));
    assertEquals("LoadBalancer", svc.getSpec().getType());
    assertEquals("10.0.0.10", svc.getSpec().getLoadBalancerIP());
    assertEquals("pd-client", svc.getSpec().getPorts().get(0).getName());
    assertEquals("true", svc.getMetadata().getAnnotations().get("lb.example.com/internal"));
    assertEquals("yes", svc.getMetadata().getLabels().get("exposed"));
    assertEquals("full-release", svc.getMetadata().getLabels().get("app.kubernetes.io/instance"),
        "the instance label comes from the cluster's own instance label");
  }

  @Test
  void peerServiceIsHeadlessAndPublishesNotReadyAddresses() {
    Service svc = PdObjects.peerService(TestClusters.load("basic"));
    assertEquals("basic-pd-peer", svc.getMetadata().getName());
    assertEquals("None", svc.getSpec().getClusterIP());
    assertTrue(svc.getSpec().getPublishNotReadyAddresses());
    assertEquals(List.of(2380, 2379),
        svc.getSpec().getPorts().stream().map(p -> p.getPort()).collect(Collectors.toList()));
    assertEquals("peer", svc.getMetadata().getLabels().get("app.kubernetes.io/used-by"));
  }

  @Test
  void everyObjectIsControlledByTheCluster() {
    TidbCluster tc = TestClusters.load("basic");
    ConfigMap cm = PdObjects.configMap(tc, Optional.empty());
    for (var obj : List.of(PdObjects.clientService(tc), PdObjects.peerService(tc), cm,
        PdObjects.statefulSet(tc, cm, StatefulSetPlan.holding(1)))) {
      var ref = obj.getMetadata().getOwnerReferences().get(0);
      assertEquals("pingcap.com/v1alpha1", ref.getApiVersion());
      assertEquals("TidbCluster", ref.getKind());
      assertEquals("basic", ref.getName());
      assertEquals(tc.getMetadata().getUid(), ref.getUid());
      assertTrue(ref.getController());
      assertTrue(ref.getBlockOwnerDeletion());
      assertEquals("default", obj.getMetadata().getNamespace());
    }
  }

  @Test
  void rollingUpdateConfigMapIsNamedByDigestAndChangesWithTheConfig() {
    TidbCluster tc = TestClusters.load("basic");
    ConfigMap before = PdObjects.configMap(tc, Optional.empty());
    assertTrue(before.getMetadata().getName().matches("basic-pd-[0-9a-f]{8}"), before.getMetadata().getName());
    assertEquals(before.getMetadata().getName(), PdObjects.configMap(tc, Optional.empty()).getMetadata().getName(),
        "same spec, same name");

    tc.getSpec().getPd().setConfig(ComponentConfig.ofToml("[log]\nlevel = \"warn\"\n"));
    ConfigMap after = PdObjects.configMap(tc, Optional.empty());
    assertNotEquals(before.getMetadata().getName(), after.getMetadata().getName());
    StatefulSet set = PdObjects.statefulSet(tc, after, StatefulSetPlan.holding(1));
    assertEquals(after.getMetadata().getName(),
        set.getSpec().getTemplate().getSpec().getVolumes().stream()
            .filter(v -> v.getName().equals("config")).findFirst().orElseThrow().getConfigMap().getName(),
        "the pod template mounts the new name, so the StatefulSet rolls");
  }

  @Test
  void inPlaceConfigMapKeepsItsName() {
    TidbCluster tc = TestClusters.load("basic");
    tc.getSpec().setConfigUpdateStrategy("InPlace");
    assertEquals("basic-pd", PdObjects.configMap(tc, Optional.empty()).getMetadata().getName());
    tc.getSpec().getPd().setConfig(ComponentConfig.ofToml("[log]\nlevel = \"warn\"\n"));
    assertEquals("basic-pd", PdObjects.configMap(tc, Optional.empty()).getMetadata().getName());
    assertEquals("basic-pd-0123abcd", PdObjects.configMap(tc, Optional.of("basic-pd-0123abcd")).getMetadata().getName(),
        "switching from RollingUpdate to InPlace keeps the mounted name, restarting nothing");
  }

  @Test
  void componentStrategyOverridesClusterStrategy() {
    TidbCluster tc = TestClusters.load("full");
    assertTrue(PdObjects.configMap(tc, Optional.empty()).getMetadata().getName().matches("full-pd-[0-9a-f]{8}"),
        "spec.pd.configUpdateStrategy RollingUpdate beats spec.configUpdateStrategy InPlace");
    assertEquals("full-tikv", TikvObjects.configMap(tc, Optional.empty()).getMetadata().getName());
  }

  @Test
  void configFileIsTheTomlOfSpecPdConfigWithTlsPathsForced() {
    ConfigMap cm = PdObjects.configMap(TestClusters.load("full"), Optional.empty());
    var toml = io.tidb.operator.api.config.TomlConfig.parse(cm.getData().get("config-file"));
    assertEquals("info", toml.get("log").get("level").asText());
    assertEquals(3, toml.get("replication").get("max-replicas").asInt());
    assertEquals("/var/lib/pd-tls/ca.crt", toml.get("security").get("cacert-path").asText());
    assertEquals("/var/lib/pd-tls/tls.crt", toml.get("security").get("cert-path").asText());
    assertEquals("/var/lib/pd-tls/tls.key", toml.get("security").get("key-path").asText());
    assertTrue(toml.get("dashboard").get("internal-proxy").asBoolean());
    assertEquals(PdObjects.startScript(TestClusters.load("full")).render(), cm.getData().get("startup-script"));
  }

  @Test
  void statefulSetCarriesThePlanAsReplicasAndPartition() {
    TidbCluster tc = TestClusters.load("advanced");
    ConfigMap cm = PdObjects.configMap(tc, Optional.empty());
    StatefulSet set = PdObjects.statefulSet(tc, cm, new StatefulSetPlan(4, 2));
    assertEquals(4, set.getSpec().getReplicas());
    assertEquals("RollingUpdate", set.getSpec().getUpdateStrategy().getType());
    assertEquals(2, set.getSpec().getUpdateStrategy().getRollingUpdate().getPartition());
    assertEquals("advanced-tidb-pd-peer", set.getSpec().getServiceName());
    assertEquals("Parallel", set.getSpec().getPodManagementPolicy());
    assertEquals(Labels.component("advanced-tidb", ClusterAddresses.PD), set.getSpec().getSelector().getMatchLabels());
  }

  @Test
  void onDeleteStrategyHasNoPartition() {
    TidbCluster tc = TestClusters.load("full");
    StatefulSet set = PdObjects.statefulSet(tc, PdObjects.configMap(tc, Optional.empty()), new StatefulSetPlan(3, 1));
    assertEquals("OnDelete", set.getSpec().getUpdateStrategy().getType());
    assertNull(set.getSpec().getUpdateStrategy().getRollingUpdate());
    assertEquals("OrderedReady", set.getSpec().getPodManagementPolicy());
  }

  @Test
  void imageIsBaseImageWithComponentVersionOverClusterVersion() {
    assertEquals("pingcap/pd:v8.5.7", PdObjects.image(TestClusters.load("basic")));
    assertEquals("registry.example.com/pingcap/pd:v8.5.6", PdObjects.image(TestClusters.load("full")));
    TidbCluster tc = TestClusters.load("basic");
    StatefulSet set = PdObjects.statefulSet(tc, PdObjects.configMap(tc, Optional.empty()), StatefulSetPlan.holding(1));
    assertEquals("pingcap/pd:v8.5.7", set.getSpec().getTemplate().getSpec().getContainers().get(0).getImage());
  }

  @Test
  void volumeClaimTemplatesComeFromStorageRequestAndStorageVolumes() {
    TidbCluster tc = TestClusters.load("full");
    List<PersistentVolumeClaim> claims =
        PdObjects.statefulSet(tc, PdObjects.configMap(tc, Optional.empty()), StatefulSetPlan.holding(3))
            .getSpec().getVolumeClaimTemplates();
    assertEquals(List.of("pd", "pd-log", "pd-audit"),
        claims.stream().map(c -> c.getMetadata().getName()).collect(Collectors.toList()));
    assertEquals(new Quantity("20Gi"), claims.get(0).getSpec().getResources().getRequests().get("storage"));
    assertEquals("fast", claims.get(0).getSpec().getStorageClassName());
    assertEquals(List.of("ReadWriteOnce"), claims.get(0).getSpec().getAccessModes());
    assertEquals(new Quantity("5Gi"), claims.get(1).getSpec().getResources().getRequests().get("storage"));
    assertEquals("fast", claims.get(1).getSpec().getStorageClassName(), "storage volumes default to the component class");
    assertEquals("slow", claims.get(2).getSpec().getStorageClassName());
  }

  @Test
  void storageVolumesWithAMountPathAreMounted() {
    TidbCluster tc = TestClusters.load("full");
    Container pd = PdObjects.statefulSet(tc, PdObjects.configMap(tc, Optional.empty()), StatefulSetPlan.holding(3))
        .getSpec().getTemplate().getSpec().getContainers().get(0);
    assertTrue(pd.getVolumeMounts().stream().anyMatch(m -> m.getName().equals("pd-log") && m.getMountPath().equals("/var/log/pd")));
    assertFalse(pd.getVolumeMounts().stream().anyMatch(m -> m.getName().equals("pd-audit")));
    assertTrue(pd.getVolumeMounts().stream().anyMatch(m -> m.getName().equals("pd") && m.getMountPath().equals("/var/lib/pd")));
  }

  @Test
  void containerResourcesLeaveOutStorage() {
    TidbCluster tc = TestClusters.load("full");
    Container pd = PdObjects.statefulSet(tc, PdObjects.configMap(tc, Optional.empty()), StatefulSetPlan.holding(3))
        .getSpec().getTemplate().getSpec().getContainers().get(0);
    assertEquals(Map.of("cpu", new Quantity("1"), "memory", new Quantity("2Gi")), pd.getResources().getRequests());
    assertEquals(Map.of("cpu", new Quantity("2")), pd.getResources().getLimits());
  }

  @Test
  void missingStorageRequestNamesTheField() {
    TidbCluster tc = TestClusters.load("basic");
    tc.getSpec().getPd().setRequests(Map.of("cpu", new Quantity("1")));
    ConfigMap cm = PdObjects.configMap(tc, Optional.empty());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> PdObjects.statefulSet(tc, cm, StatefulSetPlan.holding(1)));
    assertTrue(e.getMessage().startsWith("spec.pd.requests.storage: Required value"), e.getMessage());
  }

  @Test
  void envHasUpstreamVariablesThenUserVariablesThatDoNotCollide() {
    TidbCluster tc = TestClusters.load("full");
    Container pd = PdObjects.statefulSet(tc, PdObjects.configMap(tc, Optional.empty()), StatefulSetPlan.holding(3))
        .getSpec().getTemplate().getSpec().getContainers().get(0);
    List<String> names = pd.getEnv().stream().map(EnvVar::getName).collect(Collectors.toList());
    assertEquals(List.of("NAMESPACE", "PEER_SERVICE_NAME", "SERVICE_NAME", "SET_NAME", "TZ", "EXTRA", "FROM_PATCH"), names);
    assertEquals("Asia/Shanghai", value(pd, "TZ"), "the user's TZ does not replace spec.timezone");
    assertEquals("full-pd-peer", value(pd, "PEER_SERVICE_NAME"));
    assertEquals("full-pd", value(pd, "SERVICE_NAME"));
    assertEquals("full-pd", value(pd, "SET_NAME"));
    assertEquals("metadata.namespace", pd.getEnv().get(0).getValueFrom().getFieldRef().getFieldPath());
  }

  @Test
  void timezoneDefaultsToUtc() {
    TidbCluster tc = TestClusters.load("basic");
    tc.getSpec().setTimezone(null);
    Container pd = PdObjects.statefulSet(tc, PdObjects.configMap(tc, Optional.empty()), StatefulSetPlan.holding(1))
        .getSpec().getTemplate().getSpec().getContainers().get(0);
    assertEquals("UTC", value(pd, "TZ"));
  }

  @Test
  void placementComponentValuesOverrideClusterValuesAndMapsMerge() {
    TidbCluster tc = TestClusters.load("full");
    var podSpec = PdObjects.statefulSet(tc, PdObjects.configMap(tc, Optional.empty()), StatefulSetPlan.holding(3))
        .getSpec().getTemplate().getSpec();
    assertEquals(Map.of("disk", "ssd", "zone", "b"), podSpec.getNodeSelector());
    assertEquals("pd-priority", podSpec.getPriorityClassName());
    assertEquals("dedicated", podSpec.getTolerations().get(0).getKey());
    assertEquals("topology.kubernetes.io/zone", podSpec.getTopologySpreadConstraints().get(0).getTopologyKey());
    assertEquals(Labels.component("full-release", ClusterAddresses.PD),
        podSpec.getTopologySpreadConstraints().get(0).getLabelSelector().getMatchLabels());
    assertEquals("cluster-pull", podSpec.getImagePullSecrets().get(0).getName());
  }

  @Test
  void podTemplateHasSelectorLabelsUserLabelsAndScrapeAnnotations() {
    TidbCluster tc = TestClusters.load("full");
    var meta = PdObjects.statefulSet(tc, PdObjects.configMap(tc, Optional.empty()), StatefulSetPlan.holding(3))
        .getSpec().getTemplate().getMetadata();
    assertEquals("db", meta.getLabels().get("team"));
    assertEquals("pd", meta.getLabels().get("app.kubernetes.io/component"));
    assertEquals("dba", meta.getAnnotations().get("owner"));
    assertEquals("true", meta.getAnnotations().get("prometheus.io/scrape"));
    assertEquals("2379", meta.getAnnotations().get("prometheus.io/port"));
  }

  @Test
  void readinessProbeOnlyWhenAsked() {
    TidbCluster basic = TestClusters.load("basic");
    Container plain = PdObjects.statefulSet(basic, PdObjects.configMap(basic, Optional.empty()), StatefulSetPlan.holding(1))
        .getSpec().getTemplate().getSpec().getContainers().get(0);
    assertNull(plain.getReadinessProbe(), "a not-ready PD would block OrderedReady bootstrap, so none by default");
    TidbCluster full = TestClusters.load("full");
    Container probed = PdObjects.statefulSet(full, PdObjects.configMap(full, Optional.empty()), StatefulSetPlan.holding(3))
        .getSpec().getTemplate().getSpec().getContainers().get(0);
    assertEquals(2379, probed.getReadinessProbe().getTcpSocket().getPort().getIntVal());
    assertEquals(15, probed.getReadinessProbe().getInitialDelaySeconds());
  }

  @Test
  void additionalContainersMergeIntoPdOrRunAsSidecars() {
    TidbCluster tc = TestClusters.load("full");
    List<Container> containers = PdObjects.statefulSet(tc, PdObjects.configMap(tc, Optional.empty()), StatefulSetPlan.holding(3))
        .getSpec().getTemplate().getSpec().getContainers();
    assertEquals(List.of("pd", "sidecar"), containers.stream().map(Container::getName).collect(Collectors.toList()));
    assertEquals("yes", value(containers.get(0), "FROM_PATCH"));
    assertEquals("registry.example.com/pingcap/pd:v8.5.6", containers.get(0).getImage());
  }

  @Test
  void clusterTlsMountsTheCertificates() {
    TidbCluster tc = TestClusters.load("full");
    var podSpec = PdObjects.statefulSet(tc, PdObjects.configMap(tc, Optional.empty()), StatefulSetPlan.holding(3))
        .getSpec().getTemplate().getSpec();
    assertEquals("full-pd-cluster-secret", podSpec.getVolumes().stream()
        .filter(v -> v.getName().equals("pd-tls")).findFirst().orElseThrow().getSecret().getSecretName());
    assertEquals("full-cluster-client-secret", podSpec.getVolumes().stream()
        .filter(v -> v.getName().equals("cluster-client-tls")).findFirst().orElseThrow().getSecret().getSecretName());
  }

  private static String value(Container c, String name) {
    return c.getEnv().stream().filter(e -> e.getName().equals(name)).findFirst().orElseThrow().getValue();
  }
}
