package io.tidb.operator.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.v1alpha1.cluster.PumpMember;
import io.tidb.operator.api.v1alpha1.cluster.PumpSpec;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.pdsim.ClusterKey;
import io.tidb.operator.pdsim.FaultRule;
import io.tidb.operator.pdsim.RecordedCall;
import io.tidb.operator.pdsim.SimulatedPumpServers;
import io.tidb.operator.testsupport.ClusterAccess;
import io.tidb.operator.testsupport.WithLocalControlPlane;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Pump on the full local control plane with the simulator's pumps registering in PD's etcd: three
 * pumps come up online (read from the binlog registry) before TiDB; a scale-in asks the last pump
 * to go offline (retried after an injected failure) and removes its pod only once the registry
 * says {@code offline} (exact call sequence).
 */
@WithLocalControlPlane
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PumpIT {

  private static final String NAME = "bin";

  private static ControllerHarness h;

  @BeforeAll
  static void start(ClusterAccess access) {
    h = ControllerHarness.start(access, "pump-it", Duration.ofSeconds(10));
  }

  @AfterAll
  static void stop() {
    if (h != null) {
      h.close();
    }
  }

  private static SimulatedPumpServers pumps() {
    return h.simulator.clusters().pump(new ClusterKey(h.namespace, NAME));
  }

  private static Instant created(String sts) {
    StatefulSet s = h.admin.apps().statefulSets().inNamespace(h.namespace).withName(sts).get();
    return Instant.parse(s.getMetadata().getCreationTimestamp());
  }

  /** Calls to the pumps, as {@code METHOD path via pod -> status}. */
  private static List<String> pumpCalls() {
    List<String> out = new ArrayList<>();
    for (RecordedCall c : h.simulator.recorder().calls(new ClusterKey(h.namespace, NAME))) {
      if ("pump".equals(c.component())) {
        out.add(c.request() + " via " + c.instance() + " -> " + c.status());
      }
    }
    return out;
  }

  @Test
  @Order(1)
  void threePumpsComeUpOnlineBeforeTidb() {
    TidbCluster tc = Fixtures.small(NAME, "RollingUpdate");
    tc.getSpec().setPump(ApiObjects.parse("""
        baseImage: pingcap/tidb-binlog
        replicas: 3
        requests: {storage: 1Gi}
        """, PumpSpec.class));
    h.create(tc);
    TidbCluster ready = h.awaitReady(NAME);

    List<PumpMember> members = ready.getStatus().getPump().getMembers();
    assertEquals(List.of("bin-pump-0:8250", "bin-pump-1:8250", "bin-pump-2:8250"),
        members.stream().map(PumpMember::getNodeId).toList());
    assertTrue(members.stream().allMatch(m -> "online".equals(m.getState())));
    assertEquals("bin-pump-0.bin-pump:8250", members.get(0).getHost());
    assertTrue(!created("bin-pump").isBefore(created("bin-tikv")), "Pump after TiKV");
    assertTrue(!created("bin-tidb").isBefore(created("bin-pump")), "TiDB after Pump");
    assertEquals("bin-pump", h.admin.apps().statefulSets().inNamespace(h.namespace)
        .withName("bin-pump").get().getSpec().getServiceName());
  }

  @Test
  @Order(2)
  void scaleInTakesThePumpOfflineAndRemovesItsPodOnlyThen() {
    h.simulator.recorder().clear();
    int fault = h.simulator.faults().add(new FaultRule(new ClusterKey(h.namespace, NAME), "pump",
        "bin-pump-2", "PUT", "/state/", 500, Duration.ZERO, 1));
    h.edit(NAME, tc -> {
      tc.getSpec().getPump().setReplicas(2);
      return tc;
    });
    TidbCluster tc = h.await(NAME, "2 pumps, Ready", t -> Fixtures.ready(t)
        && h.admin.apps().statefulSets().inNamespace(h.namespace).withName("bin-pump").get()
            .getSpec().getReplicas() == 2);
    h.simulator.faults().remove(fault);

    assertEquals(List.of(
        "PUT /state/bin-pump-2:8250/close via bin-pump-2 -> 500",
        "PUT /state/bin-pump-2:8250/close via bin-pump-2 -> 200"),
        pumpCalls());
    assertEquals("offline", pumps().of("bin-pump-2").orElseThrow().state());
    assertEquals(List.of("online", "online", "offline"),
        tc.getStatus().getPump().getMembers().stream().map(PumpMember::getState).toList());
    assertTrue(h.events(NAME).stream().anyMatch(e -> "PumpOffline".equals(e.getReason())));
    assertTrue(h.events(NAME).stream().anyMatch(e -> "ScaledIn".equals(e.getReason())
        && e.getMessage().startsWith("Pump scaled in from 3 to 2")));
  }
}
