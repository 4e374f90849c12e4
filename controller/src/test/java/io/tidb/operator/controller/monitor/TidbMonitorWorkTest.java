package io.tidb.operator.controller.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSetStatusBuilder;
import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.monitor.BasicAuth;
import io.tidb.operator.api.v1alpha1.monitor.SecretOrConfigMap;
import io.tidb.operator.api.v1alpha1.monitor.TidbMonitor;
import io.tidb.operator.api.v1alpha1.monitor.TidbMonitorStatus;
import io.tidb.operator.api.v1alpha1.monitor.TlsConfig;
import io.tidb.operator.controller.fixtures.FakeApplier;
import io.tidb.operator.controller.fixtures.FakeOwnedObjects;
import io.tidb.operator.controller.fixtures.RecordingEventRecorder;
import io.tidb.operator.controller.runtime.Conditions;
import io.tidb.operator.controller.runtime.EventRecorder.EventType;
import io.tidb.operator.controller.runtime.ResourceContext;
import io.tidb.operator.controller.runtime.WorkOutcome;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** One reconcile of the TidbMonitor work over in-memory objects and reads. */
class TidbMonitorWorkTest {

  /** Clusters, Secrets and ConfigMaps by {@code ns/name}. */
  static final class FakeReads implements MonitorReads {
    final Map<String, TidbCluster> clusters = new HashMap<>();
    final Map<String, Boolean> dm = new HashMap<>();
    final Map<String, Secret> secrets = new HashMap<>();
    final Map<String, ConfigMap> configMaps = new HashMap<>();

    FakeReads cluster(String ns, String name, boolean tls) {
      clusters.put(ns + "/" + name, ApiObjects.parse("""
          apiVersion: pingcap.com/v1alpha1
          kind: TidbCluster
          metadata: {name: %s, namespace: %s}
          spec: {tlsCluster: {enabled: %s}}
          """.formatted(name, ns, tls), TidbCluster.class));
      return this;
    }

    @Override
    public Optional<TidbCluster> tidbCluster(String namespace, String name) {
      return Optional.ofNullable(clusters.get(namespace + "/" + name));
    }

    @Override
    public Optional<Boolean> dmClusterTls(String namespace, String name) {
      return Optional.ofNullable(dm.get(namespace + "/" + name));
    }

    @Override
    public Optional<Secret> secret(String namespace, String name) {
      return Optional.ofNullable(secrets.get(namespace + "/" + name));
    }

    @Override
    public Optional<ConfigMap> configMap(String namespace, String name) {
      return Optional.ofNullable(configMaps.get(namespace + "/" + name));
    }
  }

  final FakeOwnedObjects owned = new FakeOwnedObjects();
  final FakeApplier applier = new FakeApplier();
  final RecordingEventRecorder events = new RecordingEventRecorder();
  /** Objects applied by name, kept like the API server would, through the same field matcher. */
  final FakeOwnedObjects byNameStore = new FakeOwnedObjects();
  final ObjectsByName byName = new ObjectsByName() {
    @Override
    public <R extends io.fabric8.kubernetes.api.model.HasMetadata> io.tidb.operator.controller.runtime.ApplyOutcome apply(R desired) {
      @SuppressWarnings("unchecked")
      Class<R> kind = (Class<R>) desired.getClass();
      return applier.apply(desired, byNameStore.get(kind, desired.getMetadata().getName()),
          byNameStore.cacheOf(kind), io.javaoperatorsdk.operator.processing.event.ResourceID.fromResource(desired));
    }
  };
  /** Claims by {@code ns/name} and volumes by name; policy changes are recorded. */
  static final class FakeVolumes implements MonitorVolumes {
    final Map<String, PersistentVolumeClaim> claims = new HashMap<>();
    final Map<String, PersistentVolume> volumes = new HashMap<>();
    final List<String> changes = new ArrayList<>();

    void bound(String ns, String claim, String volume, String policy) {
      claims.put(ns + "/" + claim, new PersistentVolumeClaimBuilder().withNewMetadata().withName(claim)
          .endMetadata().withNewSpec().withVolumeName(volume).endSpec().build());
      volumes.put(volume, new PersistentVolumeBuilder().withNewMetadata().withName(volume).endMetadata()
          .withNewSpec().withPersistentVolumeReclaimPolicy(policy).endSpec().build());
    }

    @Override
    public Optional<PersistentVolumeClaim> claim(String namespace, String name) {
      return Optional.ofNullable(claims.get(namespace + "/" + name));
    }

    @Override
    public Optional<PersistentVolume> volume(String name) {
      return Optional.ofNullable(volumes.get(name));
    }

    @Override
    public void setReclaimPolicy(String volume, String policy) {
      changes.add(volume + "=" + policy);
      volumes.get(volume).getSpec().setPersistentVolumeReclaimPolicy(policy);
    }
  }

  /** PD etcd writes, in order; fails while {@code failing}. */
  static final class FakeTopology implements DashboardTopology {
    final List<String> puts = new ArrayList<>();
    boolean failing;

    @Override
    public void put(TidbCluster cluster, String key, String value, Duration ttl) {
      if (failing) {
        throw new IllegalStateException("PD of " + cluster.getMetadata().getName() + " answered 503");
      }
      puts.add(cluster.getMetadata().getName() + " " + key + " " + value + " ttl=" + ttl.toSeconds());
    }
  }

  final FakeVolumes volumes = new FakeVolumes();
  final FakeTopology topology = new FakeTopology();
  final TidbMonitorWork work =
      new TidbMonitorWork(lookup -> null, byName, null, volumes, new DashboardLinks(topology));
  Instant now = Instant.parse("2026-01-01T00:00:00Z");

  private ResourceContext<TidbMonitor, TidbMonitorStatus> ctx(TidbMonitor tm, TidbMonitorStatus status) {
    tm.getMetadata().setGeneration(1L);
    return new ResourceContext<>(tm, tm, status, owned, applier, events, now);
  }

  private static Condition condition(TidbMonitorStatus s, String type) {
    return Conditions.find(s.getConditions(), type).orElseThrow();
  }

  private void podsReady(String sts) {
    StatefulSet s = owned.get(StatefulSet.class, sts).orElseThrow();
    s.getMetadata().setGeneration(1L);
    s.setStatus(new StatefulSetStatusBuilder().withObservedGeneration(1L).withReplicas(1)
        .withReadyReplicas(1).withCurrentRevision("r1").withUpdateRevision("r1").build());
  }

  @Test
  void aMissingClusterIsAConditionAndOneWarningWhileTheOthersAreMonitored() {
    TidbMonitor tm = MonitorManifests.named("heterogeneous__tidb-monitor.yaml");
    FakeReads reads = new FakeReads().cluster("ns", "basic", false);
    TidbMonitorStatus status = new TidbMonitorStatus();
    WorkOutcome first = work.work(ctx(tm, status), reads);
    Condition found = condition(status, TidbMonitorWork.CLUSTERS_FOUND);
    assertEquals("False", found.getStatus());
    assertEquals("ClusterNotFound", found.getReason());
    assertEquals("TidbCluster ns/basic-heterogeneous not found; monitoring ns/basic; the configuration"
        + " follows when it is created", found.getMessage());
    assertEquals(List.of("ns/basic"), status.getClusters());
    assertEquals("ClusterNotFound", condition(status, TidbMonitorWork.READY).getReason());
    assertTrue(first.converging(), "the StatefulSet has no ready pod yet");
    String yaml = owned.get(ConfigMap.class, "heterogeneous-monitor").orElseThrow().getData().get("prometheus.yml");
    assertTrue(yaml.contains("job_name: ns-basic-pd"));
    assertTrue(!yaml.contains("basic-heterogeneous"));
    assertEquals(1, events.events.stream().filter(e -> e.type() == EventType.WARNING).count());

    podsReady("heterogeneous-monitor");
    work.work(ctx(tm, status), reads);
    assertEquals(1, events.events.stream().filter(e -> e.type() == EventType.WARNING).count(),
        "the same message is not recorded again");

    reads.cluster("ns", "basic-heterogeneous", false);
    int writes = applier.writes.size();
    WorkOutcome found2 = work.work(ctx(tm, status), reads);
    assertEquals("True", condition(status, TidbMonitorWork.CLUSTERS_FOUND).getStatus());
    assertEquals("True", condition(status, TidbMonitorWork.READY).getStatus());
    assertEquals("Prometheus and Grafana running for ns/basic, ns/basic-heterogeneous",
        condition(status, TidbMonitorWork.READY).getMessage());
    assertEquals(WorkOutcome.CONVERGED, found2.result());
    assertEquals(List.of("ConfigMap heterogeneous-monitor"), applier.writes.subList(writes, applier.writes.size()),
        "only the configuration changes; the reloader loads it");
    assertTrue(events.reasons().contains("ConfigChanged"));
    assertEquals("Running", status.getPrometheus());

    int settled = applier.writes.size();
    work.work(ctx(tm, status), reads);
    assertEquals(settled, applier.writes.size(), "nothing to write when nothing changed");
  }

  @Test
  void clusterScopedDiscoveryIsAClusterRoleAndANamespacedInstallIsToldWhatToDo() {
    TidbMonitor tm = MonitorManifests.named("basic-cn__tidb-monitor.yaml");
    tm.getSpec().setClusterScoped(true);
    FakeReads reads = new FakeReads().cluster("ns", "basic", false);
    TidbMonitorWork clusterWide = new TidbMonitorWork(lookup -> null, byName, new ClusterScopedRbac(null, byName),
        volumes, new DashboardLinks(topology));
    clusterWide.work(ctx(tm, new TidbMonitorStatus()), reads);
    assertTrue(applier.writes.contains("ClusterRole ns-basic-monitor"), applier.writes.toString());
    assertTrue(applier.writes.contains("ClusterRoleBinding ns-basic-monitor"), applier.writes.toString());
    assertFalse(applier.writes.contains("Role basic-monitor"), "no namespaced Role beside the ClusterRole");

    ObjectsByName forbidden = new ObjectsByName() {
      @Override
      public <R extends io.fabric8.kubernetes.api.model.HasMetadata> io.tidb.operator.controller.runtime.ApplyOutcome apply(R desired) {
        if (desired.getKind().startsWith("Cluster")) {
          throw new io.fabric8.kubernetes.client.KubernetesClientException("clusterroles is forbidden", 403, null);
        }
        return byName.apply(desired);
      }
    };
    TidbMonitorWork namespaced = new TidbMonitorWork(lookup -> null, forbidden, new ClusterScopedRbac(null, forbidden),
        volumes, new DashboardLinks(topology));
    TidbMonitorStatus status = new TidbMonitorStatus();
    namespaced.work(ctx(tm, status), reads);
    Condition ready = condition(status, TidbMonitorWork.READY);
    assertEquals("False", ready.getStatus());
    assertTrue(ready.getMessage().contains("spec.clusterScoped needs a ClusterRole ns-basic-monitor, which this operator"
        + " may not create (a namespace-scoped install)"), ready.getMessage());
    assertTrue(owned.get(ConfigMap.class, "basic-monitor").isPresent(), "the rest of the monitor is still written");
  }

  @Test
  void aTlsClustersClientCertificateIsCopiedIntoTheTlsAssets() {
    TidbMonitor tm = MonitorManifests.named("basic-tls__tidb-monitor.yaml");
    FakeReads reads = new FakeReads().cluster("ns", "basic-tls", true);
    TidbMonitorStatus status = new TidbMonitorStatus();
    work.work(ctx(tm, status), reads);
    assertTrue(condition(status, TidbMonitorWork.READY).getMessage().contains(
        "client certificate Secret ns/basic-tls-cluster-client-secret of TLS cluster ns/basic-tls not found"));

    reads.secrets.put("ns/basic-tls-cluster-client-secret", new SecretBuilder().withNewMetadata()
        .withName("basic-tls-cluster-client-secret").endMetadata()
        .withData(Map.of("ca.crt", "Y2E=", "tls.crt", "Y3J0", "tls.key", "a2V5", "other", "eA==")).build());
    work.work(ctx(tm, status), reads);
    Secret assets = byNameStore.get(Secret.class, "tidbmonitor-basic-tls-tls-assets").orElseThrow();
    assertEquals(Map.of("secret_ns_basic-tls-cluster-client-secret_ca.crt", "Y2E=",
        "secret_ns_basic-tls-cluster-client-secret_tls.crt", "Y3J0",
        "secret_ns_basic-tls-cluster-client-secret_tls.key", "a2V5"), assets.getData());
  }

  @Test
  void anExternalConfigMapReplacesTheGeneratedConfigurationAndItsAbsenceIsReported() {
    TidbMonitor tm = MonitorManifests.named("monitor-with-externalConfigMap__prometheus__tidb-monitor.yaml");
    FakeReads reads = new FakeReads().cluster("ns", "basic", false);
    TidbMonitorStatus status = new TidbMonitorStatus();
    work.work(ctx(tm, status), reads);
    assertTrue(condition(status, TidbMonitorWork.READY).getMessage().contains(
        "ConfigMap ns/external-config (spec.prometheus.config.configMapRef) not found; using the generated configuration"));
    assertTrue(owned.get(ConfigMap.class, "basic-monitor").orElseThrow().getData().get("prometheus.yml")
        .contains("ns-basic-pd"));

    reads.configMaps.put("ns/external-config", new ConfigMapBuilder().withNewMetadata().withName("external-config")
        .endMetadata().withData(Map.of("prometheus-config", "global: {scrape_interval: 30s}\n")).build());
    work.work(ctx(tm, status), reads);
    assertEquals("global: {scrape_interval: 30s}\n",
        owned.get(ConfigMap.class, "basic-monitor").orElseThrow().getData().get("prometheus.yml"));
    String cmd = owned.get(StatefulSet.class, "basic-monitor").orElseThrow().getSpec().getTemplate().getSpec()
        .getContainers().get(0).getCommand().get(2);
    assertTrue(cmd.endsWith("--web.read-timeout=5m --web.max-connections=512 --storage.remote.read-concurrent-limit=10"), cmd);
  }

  @Test
  void monitorsOfAClusterAreTheOnesReferencingItsNamespaceAndName() {
    TidbMonitor here = MonitorManifests.named("namespaced__tidb-monitor.yaml");
    TidbMonitor elsewhere = MonitorManifests.named("monitor-dynamic-configmap__tidb-monitor.yaml");
    TidbCluster basic = new FakeReads().cluster("ns", "basic", false).clusters.get("ns/basic");
    TidbCluster ns1 = new FakeReads().cluster("ns1", "ns1", false).clusters.get("ns1/ns1");
    assertEquals(1, TidbMonitorWork.monitorsOf(basic, List.of(here, elsewhere)).size());
    assertEquals("basic", TidbMonitorWork.monitorsOf(basic, List.of(here, elsewhere)).iterator().next().getName());
    assertEquals("monitor", TidbMonitorWork.monitorsOf(ns1, List.of(here, elsewhere)).iterator().next().getName());
  }

  private static Secret secret(String name, Map<String, String> data) {
    return new SecretBuilder().withNewMetadata().withName(name).endMetadata().withData(data).build();
  }

  private static TidbMonitor remoteWriteWithSecrets(String version) {
    TidbMonitor tm = MonitorManifests.named("monitor-prom-remotewrite__tidb-monitor.yaml");
    tm.getSpec().getPrometheus().setVersion(version);
    var rw = tm.getSpec().getPrometheus().getRemoteWrite().get(0);
    BasicAuth auth = new BasicAuth();
    auth.setUsername(new io.fabric8.kubernetes.api.model.SecretKeySelector("user", "remote-auth", null));
    auth.setPassword(new io.fabric8.kubernetes.api.model.SecretKeySelector("pass", "remote-auth", null));
    rw.setBasicAuth(auth);
    TlsConfig tls = new TlsConfig();
    SecretOrConfigMap ca = new SecretOrConfigMap();
    ca.setConfigMap(new io.fabric8.kubernetes.api.model.ConfigMapKeySelector("ca.crt", "remote-ca", null));
    tls.setCa(ca);
    tls.setKeySecret(new io.fabric8.kubernetes.api.model.SecretKeySelector("tls.key", "remote-client", null));
    SecretOrConfigMap cert = new SecretOrConfigMap();
    cert.setSecret(new io.fabric8.kubernetes.api.model.SecretKeySelector("tls.crt", "remote-client", null));
    tls.setCert(cert);
    rw.setTlsConfig(tls);
    return tm;
  }

  private String prometheusYaml(TidbMonitor tm) {
    return owned.get(ConfigMap.class, MonitorNames.monitor(tm)).orElseThrow().getData().get("prometheus.yml");
  }

  @Test
  void remoteWriteCredentialsAreCopiedAsFilesAndNoPasswordIsWrittenIntoTheConfiguration() {
    TidbMonitor tm = remoteWriteWithSecrets("v2.53.4");
    FakeReads reads = new FakeReads().cluster("ns", "basic", false);
    reads.secrets.put("ns/remote-auth", secret("remote-auth", Map.of("user", "dXNlcg==", "pass", "czNjcjN0")));
    reads.secrets.put("ns/remote-client", secret("remote-client", Map.of("tls.crt", "Y3J0", "tls.key", "a2V5")));
    reads.configMaps.put("ns/remote-ca", new ConfigMapBuilder().withNewMetadata().withName("remote-ca")
        .endMetadata().withData(Map.of("ca.crt", "ca")).build());
    TidbMonitorStatus status = new TidbMonitorStatus();
    work.work(ctx(tm, status), reads);

    Secret assets = byNameStore.get(Secret.class, MonitorNames.tlsAssets(tm)).orElseThrow();
    assertEquals(Map.of("remoteWrite_0_username", "dXNlcg==", "remoteWrite_0_password", "czNjcjN0",
        "remoteWrite_0_ca.crt", "Y2E=", "remoteWrite_0_tls.crt", "Y3J0", "remoteWrite_0_tls.key", "a2V5"),
        assets.getData());
    String yaml = prometheusYaml(tm);
    String dir = PrometheusConfigGenerator.TLS_ASSETS_PATH + "/";
    assertTrue(yaml.contains("basic_auth:\n    username_file: " + dir + "remoteWrite_0_username\n"
        + "    password_file: " + dir + "remoteWrite_0_password\n"), yaml);
    assertTrue(yaml.contains("ca_file: " + dir + "remoteWrite_0_ca.crt"), yaml);
    assertTrue(yaml.contains("cert_file: " + dir + "remoteWrite_0_tls.crt"), yaml);
    assertTrue(yaml.contains("key_file: " + dir + "remoteWrite_0_tls.key"), yaml);
    assertFalse(yaml.contains("s3cr3t") || yaml.contains("czNjcjN0"), "no password in the ConfigMap");
  }

  @Test
  void olderPrometheusGetsTheUserNameInlineAndAMissingSecretLeavesTheRemoteWriteOut() {
    TidbMonitor tm = remoteWriteWithSecrets("v2.27.1");
    FakeReads reads = new FakeReads().cluster("ns", "basic", false);
    reads.secrets.put("ns/remote-auth", secret("remote-auth", Map.of("user", "dXNlcg==", "pass", "czNjcjN0")));
    TidbMonitorStatus status = new TidbMonitorStatus();
    work.work(ctx(tm, status), reads);
    podsReady(MonitorNames.statefulSet(tm, 0));
    work.work(ctx(tm, status), reads);

    assertFalse(prometheusYaml(tm).contains("remote_write"), prometheusYaml(tm));
    Condition ready = condition(status, TidbMonitorWork.READY);
    assertEquals("ConfigIncomplete", ready.getReason());
    assertTrue(ready.getMessage().contains("spec.prometheus.remoteWrite[0].tlsConfig.ca.configMap: ConfigMap"
        + " ns/remote-ca not found; remote write left out"), ready.getMessage());
    assertTrue(ready.getMessage().contains("spec.prometheus.remoteWrite[0].tlsConfig.keySecret: Secret"
        + " ns/remote-client not found"), ready.getMessage());

    reads.secrets.put("ns/remote-client", secret("remote-client", Map.of("tls.crt", "Y3J0", "tls.key", "a2V5")));
    reads.configMaps.put("ns/remote-ca", new ConfigMapBuilder().withNewMetadata().withName("remote-ca")
        .endMetadata().withData(Map.of("ca.crt", "ca")).build());
    work.work(ctx(tm, status), reads);
    String yaml = prometheusYaml(tm);
    assertTrue(yaml.contains("basic_auth:\n    username: user\n    password_file: "), yaml);
    assertFalse(byNameStore.get(Secret.class, MonitorNames.tlsAssets(tm)).orElseThrow().getData()
        .containsKey("remoteWrite_0_username"));
    assertEquals("Ready", condition(status, TidbMonitorWork.READY).getReason());
  }

  @Test
  void theReclaimPolicyIsSetOnceOnTheBoundDataVolume() {
    TidbMonitor tm = MonitorManifests.named("basic-cn__tidb-monitor.yaml");
    tm.getSpec().setPersistent(true);
    tm.getSpec().setStorage("1Gi");
    tm.getSpec().setPvReclaimPolicy("Retain");
    FakeReads reads = new FakeReads().cluster("ns", "basic", false);
    TidbMonitorStatus status = new TidbMonitorStatus();
    work.work(ctx(tm, status), reads);
    assertEquals(List.of(), volumes.changes, "no claim bound yet");

    volumes.bound("ns", "tidbmonitor-" + MonitorNames.statefulSet(tm, 0) + "-0", "pv-1", "Delete");
    work.work(ctx(tm, status), reads);
    work.work(ctx(tm, status), reads);
    assertEquals(List.of("pv-1=Retain"), volumes.changes);
    assertEquals(1, events.reasons().stream().filter("ReclaimPolicySet"::equals).count());
  }

  @Test
  void theDashboardIsPointedAtTheMonitorAndRewrittenOnlyBeforeTheLeaseRunsOut() {
    TidbMonitor tm = MonitorManifests.named("basic-cn__tidb-monitor.yaml");
    FakeReads reads = new FakeReads().cluster("ns", "basic", false);
    reads.clusters.get("ns/basic").getSpec().setPd(new io.tidb.operator.api.v1alpha1.cluster.PdSpec());
    TidbMonitorStatus status = new TidbMonitorStatus();
    topology.failing = true;
    work.work(ctx(tm, status), reads);
    Condition linked = condition(status, TidbMonitorWork.DASHBOARD_LINKED);
    assertEquals("False", linked.getStatus());
    assertTrue(linked.getMessage().contains("PD of basic answered 503"), linked.getMessage());

    topology.failing = false;
    work.work(ctx(tm, status), reads);
    String ns = tm.getMetadata().getNamespace();
    String name = tm.getMetadata().getName();
    assertEquals(List.of(
        "basic /topology/prometheus {\"ip\":\"" + name + "-prometheus." + ns + ".svc\",\"port\":9090} ttl=600",
        "basic /topology/grafana {\"ip\":\"" + name + "-grafana." + ns + ".svc\",\"port\":3000} ttl=600"),
        topology.puts);
    assertEquals("True", condition(status, TidbMonitorWork.DASHBOARD_LINKED).getStatus());

    now = now.plusSeconds(299);
    work.work(ctx(tm, status), reads);
    assertEquals(2, topology.puts.size(), "not rewritten before half the lease");
    now = now.plusSeconds(1);
    work.work(ctx(tm, status), reads);
    assertEquals(4, topology.puts.size(), "rewritten at half the lease");
  }
}
