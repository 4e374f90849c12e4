package io.tidb.operator.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.v1alpha1.cluster.PumpSpec;
import io.tidb.operator.api.v1alpha1.cluster.TicdcSpec;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.cluster.TiflashSpec;
import io.tidb.operator.api.v1alpha1.cluster.TiproxySpec;
import io.tidb.operator.pdsim.ClusterKey;
import io.tidb.operator.pdsim.FaultRule;
import io.tidb.operator.pdsim.SimulatedStore;
import io.tidb.operator.testsupport.ClusterAccess;
import io.tidb.operator.testsupport.WithLocalControlPlane;
import java.time.Duration;
import java.time.Instant;
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
 * a pump that is no longer online each turn {@code Ready} False with its reason, and back.
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
        replicas: 2
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
    assertEquals(2, ready.getStatus().getTicdc().getCaptures().size());
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
}
