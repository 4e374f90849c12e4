package io.tidb.operator.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.v1alpha1.cluster.TicdcCapture;
import io.tidb.operator.api.v1alpha1.cluster.TicdcSpec;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.pdsim.ClusterKey;
import io.tidb.operator.pdsim.RecordedCall;
import io.tidb.operator.pdsim.SimulatedTicdcServers;
import io.tidb.operator.testsupport.ClusterAccess;
import io.tidb.operator.testsupport.WithLocalControlPlane;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * TiCDC on the full local control plane with the simulator's TiCDC servers: three captures come
 * up Ready; an upgrade drains each capture before its pod is replaced, moving ownership off the
 * next pod first (exact call sequence); a scale-in resigns the owner and drains it before the pod
 * goes; an upgrade across two major versions replaces the pods without either (upstream's
 * version check).
 */
@WithLocalControlPlane
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TicdcIT {

  private static final String NAME = "cdc";

  private static ControllerHarness h;

  @BeforeAll
  static void start(ClusterAccess access) {
    h = ControllerHarness.start(access, "ticdc-it", Duration.ofSeconds(10));
  }

  @AfterAll
  static void stop() {
    if (h != null) {
      h.close();
    }
  }

  private static SimulatedTicdcServers cdc() {
    return h.simulator.clusters().ticdc(new ClusterKey(h.namespace, NAME));
  }

  /** TiCDC calls that change something, as {@code METHOD path via pod}, repeats folded. */
  private static List<String> ticdcMutations() {
    List<String> out = new ArrayList<>();
    for (RecordedCall c : h.simulator.recorder().calls(new ClusterKey(h.namespace, NAME))) {
      if (!"ticdc".equals(c.component()) || "GET".equals(c.method())) {
        continue;
      }
      String line = c.request() + " via " + c.instance();
      if (out.isEmpty() || !out.get(out.size() - 1).equals(line)) {
        out.add(line);
      }
    }
    return out;
  }

  private static Instant created(String pod) {
    Pod p = h.admin.pods().inNamespace(h.namespace).withName(pod).get();
    return Instant.parse(p.getMetadata().getCreationTimestamp());
  }

  @Test
  @Order(1)
  void threeCapturesComeUpReady() {
    TidbCluster tc = Fixtures.small(NAME, "RollingUpdate");
    tc.getSpec().setTicdc(ApiObjects.parse("""
        baseImage: pingcap/ticdc
        replicas: 3
        gracefulShutdownTimeout: 5m
        """, TicdcSpec.class));
    h.create(tc);
    TidbCluster ready = h.awaitReady(NAME);
    Map<String, TicdcCapture> captures = ready.getStatus().getTicdc().getCaptures();
    assertEquals(List.of("cdc-ticdc-0", "cdc-ticdc-1", "cdc-ticdc-2"),
        List.copyOf(captures.keySet()));
    assertTrue(captures.values().stream().allMatch(c -> Boolean.TRUE.equals(c.getReady())));
    assertEquals(1, captures.values().stream().filter(c -> Boolean.TRUE.equals(c.getIsOwner())).count());
  }

  @Test
  @Order(2)
  void anUpgradeDrainsEachCaptureBeforeItsPodIsReplaced() {
    cdc().setOwner("cdc-ticdc-0");
    h.simulator.recorder().clear();
    h.edit(NAME, tc -> {
      tc.getSpec().getTicdc().setVersion("v8.5.8");
      return tc;
    });
    h.await(NAME, "TiCDC on v8.5.8, Ready", t ->
        Fixtures.ready(t) && "pingcap/ticdc:v8.5.8".equals(t.getStatus().getTicdc().getImage()));

    assertEquals(List.of(
        "PUT /api/v1/captures/drain via cdc-ticdc-2",
        "PUT /api/v1/captures/drain via cdc-ticdc-1",
        "POST /api/v1/owner/resign via cdc-ticdc-0",
        "PUT /api/v1/captures/drain via cdc-ticdc-1",
        "PUT /api/v1/captures/drain via cdc-ticdc-0"),
        ticdcMutations());
    assertTrue(!created("cdc-ticdc-1").isBefore(created("cdc-ticdc-2")), "highest ordinal first");
    assertTrue(!created("cdc-ticdc-0").isBefore(created("cdc-ticdc-1")), "then the next");
    assertTrue(h.events(NAME).stream().anyMatch(e -> "TiCDCGracefulShutdown".equals(e.getReason())));
  }

  @Test
  @Order(3)
  void scaleInResignsTheOwnerAndDrainsItBeforeThePodGoes() {
    h.await(NAME, "the graceful-shutdown record gone", t ->
        t.getStatus().getTicdc().getConditions() == null
            || t.getStatus().getTicdc().getConditions().stream()
                .noneMatch(c -> "GracefulShutdown".equals(c.getType())));
    cdc().setOwner("cdc-ticdc-2");
    h.simulator.recorder().clear();
    h.edit(NAME, tc -> {
      tc.getSpec().getTicdc().setReplicas(2);
      return tc;
    });
    TidbCluster tc = h.await(NAME, "2 captures, Ready", t ->
        Fixtures.ready(t) && t.getStatus().getTicdc().getCaptures().size() == 2);
    assertEquals(List.of(
        "POST /api/v1/owner/resign via cdc-ticdc-2",
        "PUT /api/v1/captures/drain via cdc-ticdc-2"),
        ticdcMutations());
    assertEquals(2, h.admin.apps().statefulSets().inNamespace(h.namespace).withName("cdc-ticdc")
        .get().getSpec().getReplicas());
    assertTrue(tc.getStatus().getTicdc().getCaptures().values().stream()
        .anyMatch(c -> Boolean.TRUE.equals(c.getIsOwner())), "a new owner was elected");
  }

  @Test
  @Order(4)
  void anUpgradeAcrossTwoMajorVersionsSkipsTheGracefulShutdown() {
    h.await(NAME, "the graceful-shutdown record gone", t ->
        t.getStatus().getTicdc().getConditions() == null
            || t.getStatus().getTicdc().getConditions().stream()
                .noneMatch(c -> "GracefulShutdown".equals(c.getType())));
    h.simulator.recorder().clear();
    h.edit(NAME, tc -> {
      tc.getSpec().getTicdc().setVersion("v10.1.0");
      return tc;
    });
    TidbCluster tc = h.await(NAME, "TiCDC on v10.1.0, Ready", t -> Fixtures.ready(t)
        && "pingcap/ticdc:v10.1.0".equals(t.getStatus().getTicdc().getImage())
        && t.getStatus().getTicdc().getCaptures().values().stream()
            .allMatch(c -> "v10.1.0".equals(c.getVersion())));
    assertEquals(List.of(), ticdcMutations(), "no resign, no drain");
    assertTrue(h.events(NAME).stream().anyMatch(e ->
        "TiCDCGracefulShutdownSkipped".equals(e.getReason())
            && e.getMessage().contains("v8.5.8 to v10.1.0 crosses two major versions")));
    assertEquals(2, tc.getStatus().getTicdc().getCaptures().size());
  }
}
