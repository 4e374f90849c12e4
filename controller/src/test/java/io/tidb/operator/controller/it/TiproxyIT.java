package io.tidb.operator.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.cluster.TiproxyMember;
import io.tidb.operator.api.v1alpha1.cluster.TiproxySpec;
import io.tidb.operator.pdsim.ClusterKey;
import io.tidb.operator.pdsim.SimulatedTiproxyServers;
import io.tidb.operator.testsupport.ClusterAccess;
import io.tidb.operator.testsupport.WithLocalControlPlane;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * TiProxy on the full local control plane with the simulator's TiProxy servers: two members come
 * up healthy and the cluster Ready; a member whose health API fails turns {@code Ready} False with
 * {@code TiProxyUnhealthy}; a scale-out together with a new version scales first and upgrades the
 * three pods after; a scale-in removes the highest pod.
 */
@WithLocalControlPlane
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TiproxyIT {

  private static final String NAME = "proxy";

  private static ControllerHarness h;

  @BeforeAll
  static void start(ClusterAccess access) {
    h = ControllerHarness.start(access, "tiproxy-it", Duration.ofSeconds(10));
  }

  @AfterAll
  static void stop() {
    if (h != null) {
      h.close();
    }
  }

  private static SimulatedTiproxyServers servers() {
    return h.simulator.clusters().tiproxy(new ClusterKey(h.namespace, NAME));
  }

  private static Instant created(String sts) {
    StatefulSet s = h.admin.apps().statefulSets().inNamespace(h.namespace).withName(sts).get();
    return Instant.parse(s.getMetadata().getCreationTimestamp());
  }

  private static List<String> rollingUpdates() {
    return h.events(NAME).stream().filter(e -> "RollingUpdate".equals(e.getReason()))
        .map(Event::getMessage).filter(m -> m.startsWith("TiProxy:")).toList();
  }

  @Test
  @Order(1)
  void twoHealthyMembersMakeTheClusterReady() {
    TidbCluster tc = Fixtures.small(NAME, "RollingUpdate");
    tc.getSpec().setTiproxy(ApiObjects.parse("""
        baseImage: pingcap/tiproxy
        version: v1.3.0
        replicas: 2
        """, TiproxySpec.class));
    h.create(tc);
    TidbCluster ready = h.awaitReady(NAME);

    Map<String, TiproxyMember> members = ready.getStatus().getTiproxy().getMembers();
    assertEquals(List.of("proxy-tiproxy-0", "proxy-tiproxy-1"), List.copyOf(members.keySet()));
    assertTrue(members.values().stream().allMatch(m -> Boolean.TRUE.equals(m.getHealth())));
    assertEquals("{\"config_checksum\":1}", members.get("proxy-tiproxy-0").getInfo());
    assertEquals("pingcap/tiproxy:v1.3.0", ready.getStatus().getTiproxy().getImage());

    Service client = h.admin.services().inNamespace(h.namespace).withName("proxy-tiproxy").get();
    assertEquals("NodePort", client.getSpec().getType());
    assertEquals(List.of(3080, 6000),
        client.getSpec().getPorts().stream().map(ServicePort::getPort).toList());
    Service peer = h.admin.services().inNamespace(h.namespace).withName("proxy-tiproxy-peer").get();
    assertEquals("None", peer.getSpec().getClusterIP());
    assertTrue(!created("proxy-tiproxy").isBefore(created("proxy-pd")), "TiProxy after PD");
  }

  @Test
  @Order(2)
  void anUnhealthyMemberMakesTheClusterUnready() {
    servers().setHealthy("proxy-tiproxy-1", false);
    TidbCluster down = h.await(NAME, "Ready=False TiProxyUnhealthy", t ->
        Fixtures.condition(t, "Ready")
            .filter(c -> "False".equals(c.getStatus()) && "TiProxyUnhealthy".equals(c.getReason()))
            .isPresent());
    assertEquals(Boolean.FALSE,
        down.getStatus().getTiproxy().getMembers().get("proxy-tiproxy-1").getHealth());
    servers().setHealthy("proxy-tiproxy-1", true);
    h.awaitReady(NAME);
  }

  @Test
  @Order(3)
  void aScaleOutWithANewVersionScalesFirstThenUpgradesEveryPod() {
    h.edit(NAME, tc -> {
      tc.getSpec().getTiproxy().setReplicas(3);
      tc.getSpec().getTiproxy().setVersion("v1.3.1");
      return tc;
    });
    TidbCluster tc = h.await(NAME, "3 TiProxy members on v1.3.1, Ready", t ->
        Fixtures.ready(t) && "pingcap/tiproxy:v1.3.1".equals(t.getStatus().getTiproxy().getImage())
            && t.getStatus().getTiproxy().getMembers().size() == 3);
    assertTrue(tc.getStatus().getTiproxy().getMembers().values().stream()
        .allMatch(m -> Boolean.TRUE.equals(m.getHealth())));
    List<String> rolls = rollingUpdates();
    assertTrue(rolls.contains("TiProxy: upgrading proxy-tiproxy-2 (0 of 3 done)"), rolls::toString);
    assertTrue(rolls.stream().noneMatch(m -> m.contains(" of 2 done")),
        () -> "no pod was upgraded before the scale-out ended: " + rolls);
  }

  @Test
  @Order(4)
  void aScaleInRemovesTheHighestPod() {
    h.edit(NAME, tc -> {
      tc.getSpec().getTiproxy().setReplicas(2);
      return tc;
    });
    TidbCluster tc = h.await(NAME, "2 TiProxy members, Ready", t ->
        Fixtures.ready(t) && t.getStatus().getTiproxy().getMembers().size() == 2);
    assertEquals(List.of("proxy-tiproxy-0", "proxy-tiproxy-1"),
        List.copyOf(tc.getStatus().getTiproxy().getMembers().keySet()));
    assertEquals(2, h.admin.apps().statefulSets().inNamespace(h.namespace)
        .withName("proxy-tiproxy").get().getSpec().getReplicas());
    assertTrue(h.events(NAME).stream().anyMatch(e -> "ScaledIn".equals(e.getReason())
        && e.getMessage().startsWith("TiProxy scaled in from 3 to 2")));
  }
}
