package io.tidb.operator.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodList;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.v1alpha1.cluster.PumpSpec;
import io.tidb.operator.api.v1alpha1.cluster.TicdcSpec;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.cluster.TiflashSpec;
import io.tidb.operator.api.v1alpha1.cluster.TiproxySpec;
import io.tidb.operator.pdsim.ClusterKey;
import io.tidb.operator.pdsim.FaultRule;
import io.tidb.operator.pdsim.SimulatedReplicationConfig;
import io.tidb.operator.pdsim.SimulatedStore;
import io.tidb.operator.testsupport.Await;
import io.tidb.operator.testsupport.ClusterAccess;
import io.tidb.operator.testsupport.WithLocalControlPlane;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * A cluster with every component this operator manages (PD, TiProxy, TiFlash, TiKV, Pump, TiDB,
 * TiCDC) comes up in upstream's order and is Ready only while all of them are: a TiCDC capture
 * that stops answering, a TiFlash store that stops heartbeating, a TiProxy whose health fails and
 * a pump that is no longer online each turn {@code Ready} False with its reason, and back. A version
 * change then rolls the components in upstream's effective upgrade order, one pod at a time.
 */
@WithLocalControlPlane
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AllComponentsIT {

  private static final String NAME = "every";

  private static ControllerHarness h;

  @BeforeAll
  static void start(ClusterAccess access) {
    h = ControllerHarness.start(access, "all-components-it", Duration.ofSeconds(10));
  }

  @AfterAll
  static void stop() {
    if (h != null) {
      h.close();
    }
  }

  private static Instant created(String sts) {
    StatefulSet s = h.admin.apps().statefulSets().inNamespace(h.namespace).withName(sts).get();
    return Instant.parse(s.getMetadata().getCreationTimestamp());
  }

  private static boolean readyBecause(TidbCluster tc, String reason) {
    return Fixtures.condition(tc, "Ready")
        .filter(c -> "False".equals(c.getStatus()) && reason.equals(c.getReason()))
        .isPresent();
  }

  @Test
  @Order(1)
  void comesUpInUpstreamOrderAndIsReadyWithEveryComponent() {
    TidbCluster tc = Fixtures.small(NAME, "RollingUpdate");
    tc.getSpec().setTiflash(ApiObjects.parse("""
        baseImage: pingcap/tiflash
        replicas: 1
        storageClaims: [{resources: {requests: {storage: 10Gi}}}]
        """, TiflashSpec.class));
    tc.getSpec().setTicdc(ApiObjects.parse("""
        baseImage: pingcap/ticdc
        replicas: 3
        """, TicdcSpec.class));
    tc.getSpec().setTiproxy(ApiObjects.parse("""
        baseImage: pingcap/tiproxy
        version: v1.3.0
        replicas: 1
        """, TiproxySpec.class));
    tc.getSpec().setPump(ApiObjects.parse("""
        baseImage: pingcap/tidb-binlog
        replicas: 1
        requests: {storage: 1Gi}
        """, PumpSpec.class));
    h.create(tc);
    TidbCluster ready = h.awaitReady(NAME);

    assertEquals(1, ready.getStatus().getTiflash().getStores().size());
    assertEquals(3, ready.getStatus().getTicdc().getCaptures().size());
    assertEquals(1, ready.getStatus().getTiproxy().getMembers().size());
    assertEquals(1, ready.getStatus().getPump().getMembers().size());
    assertTrue(!created("every-tiproxy").isBefore(created("every-pd")), "TiProxy after PD");
    assertTrue(!created("every-pump").isBefore(created("every-tikv")), "Pump after TiKV");
    assertTrue(!created("every-tidb").isBefore(created("every-pump")), "TiDB after Pump");
    assertTrue(!created("every-tiflash").isBefore(created("every-pd")), "TiFlash after PD");
    assertTrue(!created("every-tikv").isBefore(created("every-pd")), "TiKV after PD");
    assertTrue(!created("every-ticdc").isBefore(created("every-tikv")), "TiCDC after TiKV");
    assertTrue(!created("every-ticdc").isBefore(created("every-tidb")), "TiCDC after TiDB");
  }

  @Test
  @Order(2)
  void aCaptureThatStopsAnsweringMakesTheClusterUnready() {
    int fault = h.simulator.faults().add(new FaultRule(new ClusterKey(h.namespace, NAME), "ticdc",
        "every-ticdc-1", "GET", "/status", 500, Duration.ZERO, 0));
    h.await(NAME, "Ready=False TiCDCCaptureNotReady",
        t -> readyBecause(t, "TiCDCCaptureNotReady"));
    h.simulator.faults().remove(fault);
    h.awaitReady(NAME);
  }

  @Test
  @Order(3)
  void aTiflashStoreThatStopsHeartbeatingMakesTheClusterUnready() {
    SimulatedStore flash = h.pd(NAME).storeOfPod("every-tiflash-0").orElseThrow();
    h.pd(NAME).setStoreHeartbeating(flash.id(), false);
    h.await(NAME, "Ready=False TiFlashStoreNotUp", t -> readyBecause(t, "TiFlashStoreNotUp"));
    h.pd(NAME).setStoreHeartbeating(flash.id(), true);
    h.awaitReady(NAME);
  }

  @Test
  @Order(4)
  void aTiproxyThatFailsItsHealthCheckMakesTheClusterUnready() {
    h.simulator.clusters().tiproxy(new ClusterKey(h.namespace, NAME))
        .setHealthy("every-tiproxy-0", false);
    h.await(NAME, "Ready=False TiProxyUnhealthy", t -> readyBecause(t, "TiProxyUnhealthy"));
    h.simulator.clusters().tiproxy(new ClusterKey(h.namespace, NAME))
        .setHealthy("every-tiproxy-0", true);
    h.awaitReady(NAME);
  }

  @Test
  @Order(5)
  void aPumpThatIsNoLongerOnlineMakesTheClusterUnready() {
    h.simulator.clusters().pump(new ClusterKey(h.namespace, NAME)).setState("every-pump-0", "paused");
    h.await(NAME, "Ready=False PumpNotOnline", t -> readyBecause(t, "PumpNotOnline"));
    h.simulator.clusters().pump(new ClusterKey(h.namespace, NAME)).setState("every-pump-0", "online");
    h.awaitReady(NAME);
  }

  /**
   * Upstream's effective upgrade order PD → TiFlash → TiKV → Pump → TiDB → TiCDC, read from the
   * order in which the API server saw the new pods (a watch from the list's resourceVersion, so
   * exact, not second-granular timestamps). TiProxy waits for no other component (upstream's
   * upgrader checks only its own scaling), so only its replacement is asserted, not its place.
   */
  /**
   * Upstream's TiProxy labels: with PD's location labels naming a zone, each healthy TiProxy is
   * sent {@code [labels]} with its Node's values ({@code kubernetes.io/hostname} for {@code host})
   * and {@code zone}.
   */
  @Test
  @Order(6)
  void eachTiproxyIsToldTheZoneOfItsNode() {
    SimulatedReplicationConfig config = h.pd(NAME).replication();
    h.pd(NAME).setReplication(new SimulatedReplicationConfig(config.maxReplicas(),
        List.of("topology.kubernetes.io/zone", "host"), config.strictlyMatchLabel(),
        config.enablePlacementRules(), config.enablePlacementRulesCache(),
        config.isolationLevel()));
    String node = h.admin.pods().inNamespace(h.namespace).withName("every-tiproxy-0").get()
        .getSpec().getNodeName();
    String zone = h.admin.nodes().withName(node).get().getMetadata().getLabels()
        .get("topology.kubernetes.io/zone");
    String expected = "[labels]\n"
        + "\"host\" = \"" + node + "\"\n"
        + "\"topology.kubernetes.io/zone\" = \"" + zone + "\"\n"
        + "\"zone\" = \"" + zone + "\"\n";
    var tiproxy = h.simulator.clusters().tiproxy(new ClusterKey(h.namespace, NAME));
    Await.until("every-tiproxy-0 told its labels", Duration.ofSeconds(60),
        () -> tiproxy.configSet().get("every-tiproxy-0"), expected::equals);
  }

  @Test
  @Order(7)
  void aVersionChangeRollsTheComponentsInUpstreamsUpgradeOrderOnePodAtATime() throws Exception {
    var pods = h.admin.pods().inNamespace(h.namespace).withLabel("app.kubernetes.io/instance", NAME);
    PodList before = pods.list();
    Set<String> old = new HashSet<>();
    before.getItems().forEach(p -> old.add(p.getMetadata().getUid()));
    List<String> created = new CopyOnWriteArrayList<>();
    Watcher<Pod> watcher = new Watcher<>() {
      @Override
      public void eventReceived(Action action, Pod pod) {
        if (old.add(pod.getMetadata().getUid())) {
          created.add(pod.getMetadata().getName());
        }
      }

      @Override
      public void onClose(WatcherException cause) {
        // the assertions below notice missing pods
      }
    };
    try (Watch watch = pods.watch(new ListOptionsBuilder()
        .withResourceVersion(before.getMetadata().getResourceVersion()).build(), watcher)) {
      h.edit(NAME, tc -> {
        tc.getSpec().setVersion("v8.5.8");
        tc.getSpec().getTiproxy().setVersion("v1.3.1");
        return tc;
      });
      h.await(NAME, "every component on its new image, Ready", t ->
          Fixtures.ready(t)
              && "pingcap/pd:v8.5.8".equals(t.getStatus().getPd().getImage())
              && "pingcap/tiflash:v8.5.8".equals(t.getStatus().getTiflash().getImage())
              && "pingcap/tikv:v8.5.8".equals(t.getStatus().getTikv().getImage())
              && "pingcap/tidb:v8.5.8".equals(t.getStatus().getTidb().getImage())
              && created.containsAll(List.of("every-pump-0", "every-ticdc-0", "every-tiproxy-0")));
    }
    // Components in the order their new pods appeared, a component's pods together (TiProxy
    // left out: it waits for no one); within TiCDC, the pods from the highest ordinal.
    List<String> components = new ArrayList<>();
    List<String> ticdc = new ArrayList<>();
    for (String pod : created) {
      String component = pod.substring(NAME.length() + 1, pod.lastIndexOf('-'));
      if (component.equals("ticdc") && !ticdc.contains(pod)) {
        ticdc.add(pod);
      }
      if (!component.equals("tiproxy")
          && (components.isEmpty() || !components.get(components.size() - 1).equals(component))) {
        components.add(component);
      }
    }
    assertEquals(List.of("pd", "tiflash", "tikv", "pump", "tidb", "ticdc"), components,
        "new pods in the order the API server saw them: " + created);
    assertEquals(List.of("every-ticdc-2", "every-ticdc-1", "every-ticdc-0"), ticdc,
        "new pods in the order the API server saw them: " + created);
    for (Map.Entry<String, String> e : Map.of("every-tiproxy-0", "pingcap/tiproxy:v1.3.1",
        "every-pump-0", "pingcap/tidb-binlog:v8.5.8", "every-ticdc-0", "pingcap/ticdc:v8.5.8",
        "every-ticdc-1", "pingcap/ticdc:v8.5.8", "every-ticdc-2", "pingcap/ticdc:v8.5.8")
        .entrySet()) {
      Pod pod = h.admin.pods().inNamespace(h.namespace).withName(e.getKey()).get();
      assertTrue(pod.getSpec().getContainers().stream().anyMatch(c -> e.getValue().equals(c.getImage())),
          e.getKey() + " runs " + e.getValue());
    }
  }
}
