package io.tidb.operator.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.PersistentVolumeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.storage.StorageClassBuilder;
import io.tidb.operator.api.v1alpha1.monitor.TidbMonitor;
import io.tidb.operator.controller.config.ComponentUrls;
import io.tidb.operator.controller.monitor.DashboardLinks;
import io.tidb.operator.controller.monitor.TidbMonitorWork;
import io.tidb.operator.pd.PdClientOptions;
import io.tidb.operator.pd.PdEtcdClient;
import io.tidb.operator.pdsim.ClusterKey;
import io.tidb.operator.pdsim.PdSimulatorServer;
import io.tidb.operator.pdsim.RecordedCall;
import io.tidb.operator.pdsim.SimulatedClusters;
import io.tidb.operator.testsupport.Await;
import io.tidb.operator.testsupport.ClusterAccess;
import io.tidb.operator.testsupport.WithLocalControlPlane;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A monitor on the local control plane with PD simulated: it points the cluster's TiDB Dashboard
 * at its Prometheus and Grafana through PD's etcd (the exact calls), reports a cluster whose PD is
 * down without touching anything else, and sets {@code spec.pvReclaimPolicy} on the volume bound
 * to its data claim.
 */
@WithLocalControlPlane
class MonitorDashboardAndVolumeIT {

  private static PdSimulatorServer simulator;
  private static MonitorHarness h;
  private static String storageClass;
  private static String volume;

  @BeforeAll
  static void start(ClusterAccess access) throws Exception {
    simulator = PdSimulatorServer.start(new SimulatedClusters());
    h = new MonitorHarness(access, "monitor-dash", new ComponentUrls(simulator.pdUrlTemplate(),
        simulator.tidbStatusUrlTemplate(), simulator.pdMemberUrlTemplate(), Duration.ofSeconds(2)));
    simulator.clusters().pd(new ClusterKey(h.ns, "basic")).addMember("basic-pd-0");
    storageClass = h.ns + "-static";
    volume = h.ns + "-monitor-data";
    h.admin.resource(new StorageClassBuilder().withNewMetadata().withName(storageClass).endMetadata()
        .withProvisioner("kubernetes.io/no-provisioner").withVolumeBindingMode("Immediate")
        .withReclaimPolicy("Delete").build()).create();
    h.admin.resource(new PersistentVolumeBuilder()
        .withNewMetadata().withName(volume).endMetadata()
        .withNewSpec()
        .withAccessModes("ReadWriteOnce")
        .addToCapacity("storage", new Quantity("1Gi"))
        .withStorageClassName(storageClass)
        .withPersistentVolumeReclaimPolicy("Delete")
        .withNewHostPath().withPath("/tmp/" + volume).endHostPath()
        .withNewClaimRef().withNamespace(h.ns).withName("tidbmonitor-dash-monitor-0").endClaimRef()
        .endSpec()
        .build()).create();
  }

  @AfterAll
  static void stop() {
    if (h != null) {
      h.admin.persistentVolumes().withName(volume).delete();
      h.admin.storage().v1().storageClasses().withName(storageClass).delete();
      h.close();
    }
    if (simulator != null) {
      simulator.close();
    }
  }

  private static List<String> etcdCalls(String cluster) {
    return simulator.calls().stream()
        .filter(c -> c.cluster() != null && c.cluster().equals(new ClusterKey(h.ns, cluster)))
        .map(RecordedCall::request)
        .filter(r -> r.contains(" /v3/"))
        .toList();
  }

  @Test
  void theDashboardIsLinkedTheDownClusterIsReportedAndTheDataVolumeIsRetained() {
    h.cluster(h.ns, "basic", false);
    h.cluster(h.ns, "down", false);
    h.monitor("dash", """
        clusters: [{name: basic}, {name: down}]
        persistent: true
        storage: 1Gi
        storageClassName: %s
        """.formatted(storageClass));

    TidbMonitor linked = h.await("dash", "DashboardLinked=False for the cluster whose PD is down",
        m -> MonitorHarness.condition(m, TidbMonitorWork.DASHBOARD_LINKED)
            .map(c -> "False".equals(c.getStatus()) && c.getMessage().contains("/down")).orElse(false));
    String message = MonitorHarness.condition(linked, TidbMonitorWork.DASHBOARD_LINKED).orElseThrow().getMessage();
    assertTrue(message.contains("TiDB Dashboard of " + h.ns + "/down not pointed at the monitor"), message);
    assertTrue(!message.contains("/basic "), "basic was linked: " + message);

    PdEtcdClient etcd = new PdEtcdClient(simulator.pdUrl(new ClusterKey(h.ns, "basic")),
        PdClientOptions.defaults().newHttpClient(), Duration.ofSeconds(5));
    Await.until("the topology keys in basic's PD", MonitorHarness.CONVERGE,
        () -> etcd.get(DashboardLinks.GRAFANA_KEY), Optional::isPresent);
    assertEquals(Optional.of("{\"ip\":\"dash-prometheus." + h.ns + ".svc\",\"port\":9090}"),
        etcd.get(DashboardLinks.PROMETHEUS_KEY));
    assertEquals(Optional.of("{\"ip\":\"dash-grafana." + h.ns + ".svc\",\"port\":3000}"),
        etcd.get(DashboardLinks.GRAFANA_KEY));
    List<String> calls = etcdCalls("basic");
    assertEquals(List.of("POST /v3/lease/grant", "POST /v3/kv/put", "POST /v3/lease/grant", "POST /v3/kv/put"),
        calls.subList(0, 4), "a lease, then the key it holds; prometheus then grafana");
    assertEquals(4, calls.stream().filter(c -> !c.contains("/v3/kv/range")).count(),
        "written once, not on every reconcile: " + calls);

    Await.until("the data volume's reclaim policy follows spec.pvReclaimPolicy (Retain)",
        MonitorHarness.CONVERGE,
        () -> h.admin.persistentVolumes().withName(volume).get().getSpec().getPersistentVolumeReclaimPolicy(),
        "Retain"::equals);
    // The Event is recorded right after the volume's patch: wait for it rather than read once.
    Await.until("a ReclaimPolicySet Event naming " + volume, MonitorHarness.CONVERGE,
        () -> h.events("dash").stream().anyMatch(e -> "ReclaimPolicySet".equals(e.getReason())
            && e.getMessage().contains(volume)),
        Boolean::booleanValue);
  }
}
