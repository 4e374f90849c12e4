package io.tidb.operator.controller.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSetStatusBuilder;
import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.monitor.TidbMonitor;
import io.tidb.operator.api.v1alpha1.monitor.TidbMonitorStatus;
import io.tidb.operator.controller.fixtures.FakeApplier;
import io.tidb.operator.controller.fixtures.FakeOwnedObjects;
import io.tidb.operator.controller.fixtures.RecordingEventRecorder;
import io.tidb.operator.controller.runtime.Conditions;
import io.tidb.operator.controller.runtime.EventRecorder.EventType;
import io.tidb.operator.controller.runtime.ResourceContext;
import io.tidb.operator.controller.runtime.WorkOutcome;
import java.time.Instant;
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
  final TidbMonitorWork work = new TidbMonitorWork(lookup -> null, byName, null);

  private ResourceContext<TidbMonitor, TidbMonitorStatus> ctx(TidbMonitor tm, TidbMonitorStatus status) {
    tm.getMetadata().setGeneration(1L);
    return new ResourceContext<>(tm, tm, status, owned, applier, events, Instant.parse("2026-01-01T00:00:00Z"));
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
}
