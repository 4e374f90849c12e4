package io.tidb.operator.controller.tidbcluster.discovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tidb.operator.pd.PdMemberInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class DiscoveryServiceTest {
  private final AtomicReference<ClusterView> cluster = new AtomicReference<>(BootstrapRulesTest.cluster("7", 3));
  private final List<PdMemberInfo> members = new ArrayList<>();
  private final AtomicInteger membersCalls = new AtomicInteger();
  private final DiscoveryService service = new DiscoveryService(cluster::get, view -> {
    membersCalls.incrementAndGet();
    if (members.isEmpty()) {
      throw new java.io.IOException("connection refused");
    }
    return List.copyOf(members);
  });

  private static String url(int ordinal) {
    return "basic-pd-" + ordinal + ".basic-pd-peer.default.svc:2380";
  }

  @Test
  void threePodsStartingTogetherBootstrapOnceAndTheOthersJoin() {
    DiscoveryException e0 = assertThrows(DiscoveryException.class, () -> service.discover(url(0)));
    assertEquals(503, e0.status(), "no PD yet: pd-0 must retry");
    assertThrows(DiscoveryException.class, () -> service.discover(url(1)));
    assertEquals("--initial-cluster=basic-pd-2=http://basic-pd-2.basic-pd-peer.default.svc:2380", service.discover(url(2)));
    assertEquals(Set.of("basic-pd-0", "basic-pd-1"), service.registrations().orElseThrow().pods());

    members.add(BootstrapRulesTest.member("basic-pd-2", "http://basic-pd-2.basic-pd-peer.default.svc:2380",
        "http://basic-pd-2.basic-pd-peer.default.svc:2379"));
    assertEquals("--join=http://basic-pd-2.basic-pd-peer.default.svc:2379", service.discover(url(0)));
    assertEquals(Set.of("basic-pd-1"), service.registrations().orElseThrow().pods());
    assertEquals("--join=http://basic-pd-2.basic-pd-peer.default.svc:2379", service.discover(url(1)));
    assertEquals(Set.of(), service.registrations().orElseThrow().pods());
  }

  @Test
  void aClusterChangeResetsTheCountSoNoSecondBootstrapHappensEarly() {
    assertThrows(DiscoveryException.class, () -> service.discover(url(0)));
    assertThrows(DiscoveryException.class, () -> service.discover(url(1)));
    cluster.set(BootstrapRulesTest.cluster("8", 3));
    DiscoveryException e = assertThrows(DiscoveryException.class, () -> service.discover(url(2)));
    assertEquals(503, e.status(), "after the reset pd-2 is only the first of three");
    assertEquals(new Registrations("8", Set.of("basic-pd-2")), service.registrations().orElseThrow());
  }

  @Test
  void theBootstrapAnswerNeedsNoPd() {
    cluster.set(BootstrapRulesTest.cluster("7", 1));
    assertEquals("--initial-cluster=basic-pd-0=http://basic-pd-0.basic-pd-peer.default.svc:2380", service.discover(url(0)));
    assertEquals(0, membersCalls.get());
  }

  @Test
  void anUnreadableClusterIsUnavailable() {
    DiscoveryService broken = new DiscoveryService(() -> {
      throw new IllegalStateException("forbidden");
    }, view -> List.of());
    DiscoveryException e = assertThrows(DiscoveryException.class, () -> broken.discover(url(0)));
    assertEquals(503, e.status());
    assertEquals("cannot read the TidbCluster: forbidden", e.getMessage());
    assertEquals(503, assertThrows(DiscoveryException.class, () -> broken.verify("basic-pd:2379")).status());
  }

  @Test
  void malformedRequestsLeaveTheCountAlone() {
    assertEquals(400, assertThrows(DiscoveryException.class, () -> service.discover("nonsense")).status());
    assertEquals(400, assertThrows(DiscoveryException.class,
        () -> service.discover("x-pd-0.x-pd-peer.default.svc:2380")).status());
    assertEquals(java.util.Optional.empty(), service.registrations());
  }
}
