package io.tidb.operator.controller.tidbcluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Secret;
import io.tidb.operator.api.v1alpha1.cluster.PdMember;
import io.tidb.operator.api.v1alpha1.cluster.PdStatus;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.cluster.TidbClusterStatus;
import io.tidb.operator.controller.config.ComponentUrls;
import io.tidb.operator.controller.fixtures.TestCertificates;
import io.tidb.operator.controller.fixtures.TestClusters;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterApi;
import io.tidb.operator.pdsim.ClusterKey;
import io.tidb.operator.pdsim.PdSimulatorServer;
import io.tidb.operator.pdsim.SimulatedClusters;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The operator's PD reads when the cluster's own PD Service does not answer (a closed loopback
 * port here): through the PD members of other TidbClusters in {@code status.pd.peerMembers}, one
 * by one, as upstream's PD control; never without peers.
 */
class PdPeerFallbackTest {

  private static final ClusterKey OTHER = new ClusterKey("ns", "other");
  private PdSimulatorServer sim;

  @AfterEach
  void stop() {
    if (sim != null) {
      sim.close();
    }
  }

  /** A port nothing listens on: the PD Service that does not answer. */
  private static int closedPort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  private ComponentUrls urls(String pdTemplate) {
    return new ComponentUrls(pdTemplate, sim.tidbStatusUrlTemplate(), sim.pdMemberUrlTemplate(),
        Duration.ofSeconds(2));
  }

  private static PdMember peer(String name, String clientUrl, boolean health) {
    PdMember m = new PdMember();
    m.setName(name);
    m.setClientURL(clientUrl);
    m.setHealth(health);
    return m;
  }

  private static TidbCluster basic(Map<String, PdMember> peers, boolean tls) {
    TidbCluster tc = TestClusters.load("basic");
    tc.getMetadata().setNamespace("ns");
    tc.getSpec().getTlsCluster().setEnabled(tls);
    TidbClusterStatus status = new TidbClusterStatus();
    PdStatus pd = new PdStatus();
    pd.setPeerMembers(peers.isEmpty() ? null : peers);
    status.setPd(pd);
    tc.setStatus(status);
    return tc;
  }

  private static Map<String, PdMember> peers(PdMember... members) {
    Map<String, PdMember> map = new TreeMap<>();
    for (PdMember m : members) {
      map.put(m.getName(), m);
    }
    return map;
  }

  @Test
  void anUnreachablePdServiceIsReadThroughThePeerMemberThatAnswers() throws Exception {
    sim = PdSimulatorServer.start(new SimulatedClusters(), new InetSocketAddress("127.0.0.1", 0));
    sim.pd(OTHER).addMember("other-pd-1");
    String dead = "http://127.0.0.1:" + closedPort() + "/clusters/{namespace}/{name}";
    ClusterApiFactory factory =
        new ClusterApiFactory(urls(dead), (ns, name) -> Optional.empty(), Clock.systemUTC());
    // other-pd-0 is not in the simulator (its member route fails): the next one is tried
    TidbCluster tc = basic(peers(
        peer("other-pd-0", "http://other-pd-0.other-pd-peer.ns.svc:2379", true),
        peer("other-pd-1", "http://other-pd-1.other-pd-peer.ns.svc:2379", false)), false);

    ClusterApi api = factory.forCluster(tc);

    assertEquals(List.of("other-pd-1"), api.pdHealth().stream().map(h -> h.name()).toList());
    String through = api.pdReadThrough().orElseThrow();
    assertTrue(through.startsWith("PD member other-pd-1 of status.pd.peerMembers at "
        + sim.pdMemberUrl(OTHER, "other-pd-1")), through);
    assertTrue(sim.calls().stream().anyMatch(c -> "other-pd-1".equals(c.instance())));
  }

  @Test
  void aPdServiceThatAnswersIsReadThroughItsServiceAndWithoutPeersNothingElseIsTried()
      throws Exception {
    sim = PdSimulatorServer.start(new SimulatedClusters(), new InetSocketAddress("127.0.0.1", 0));
    sim.pd(new ClusterKey("ns", "basic")).addMember("basic-pd-0");
    sim.pd(OTHER).addMember("other-pd-0");
    Map<String, PdMember> peers =
        peers(peer("other-pd-0", "http://other-pd-0.other-pd-peer.ns.svc:2379", true));
    ClusterApi api = new ClusterApiFactory(urls(sim.pdUrlTemplate()),
        (ns, name) -> Optional.empty(), Clock.systemUTC()).forCluster(basic(peers, false));
    assertEquals(Optional.empty(), api.pdReadThrough());
    assertEquals(List.of("basic-pd-0"), api.pdHealth().stream().map(h -> h.name()).toList());

    String dead = "http://127.0.0.1:" + closedPort() + "/clusters/{namespace}/{name}";
    ClusterApi alone = new ClusterApiFactory(urls(dead), (ns, name) -> Optional.empty(),
        Clock.systemUTC()).forCluster(basic(Map.of(), false));
    assertEquals(Optional.empty(), alone.pdReadThrough());
    assertThrows(IOException.class, alone::pdHealth);
    assertTrue(sim.calls().stream().noneMatch(c -> "other-pd-0".equals(c.instance())));
  }

  @Test
  void noPeerAnsweringLeavesTheServiceAndItsError() throws Exception {
    sim = PdSimulatorServer.start(new SimulatedClusters(), new InetSocketAddress("127.0.0.1", 0));
    String dead = "http://127.0.0.1:" + closedPort() + "/clusters/{namespace}/{name}";
    ClusterApi api = new ClusterApiFactory(urls(dead), (ns, name) -> Optional.empty(),
        Clock.systemUTC()).forCluster(basic(peers(
            peer("other-pd-0", "http://other-pd-0.other-pd-peer.ns.svc:2379", true)), false));
    assertEquals(Optional.empty(), api.pdReadThrough());
    IOException e = assertThrows(IOException.class, api::pdHealth);
    assertTrue(e.getMessage().contains(dead.substring(0, dead.indexOf("/clusters"))),
        e.getMessage());
  }

  /** The peer read of {@code basic} under TLS, the simulator's certificate naming {@code names}. */
  private ClusterApi tlsPeerRead(List<String> names) throws Exception {
    TestCertificates certs = TestCertificates.newCa("fallback-ca");
    sim = PdSimulatorServer.startTls(new SimulatedClusters(), new InetSocketAddress("127.0.0.1", 0),
        certs.server(certs.peer(names)));
    sim.pd(OTHER).addMember("other-pd-0");
    Secret client = certs.secret("ns", "basic-cluster-client-secret", certs.peer(List.of("TiDB")));
    String dead = "https://127.0.0.1:" + closedPort() + "/clusters/{namespace}/{name}";
    ClusterApiFactory factory = new ClusterApiFactory(urls(dead),
        (ns, name) -> Optional.of(client).filter(s -> s.getMetadata().getName().equals(name)),
        Clock.systemUTC());
    return factory.forCluster(basic(peers(
        peer("other-pd-0", "https://other-pd-0.other-pd-peer.ns.svc:2379", true)), true));
  }

  @Test
  void underTlsThePeerMemberIsCalledWithTheClientCertificateAndCheckedAgainstItsOwnHost()
      throws Exception {
    ClusterApi api = tlsPeerRead(TestCertificates.componentNames("other", "ns", "pd"));
    assertEquals(List.of("other-pd-0"), api.pdHealth().stream().map(h -> h.name()).toList());
    assertTrue(api.pdReadThrough().orElseThrow().contains("https://"), api.pdReadThrough().get());
    assertEquals(1, sim.clientCertificates().stream().distinct().count());
  }

  @Test
  void underTlsAPeerWhoseCertificateDoesNotNameItsHostIsNotRead() throws Exception {
    // the certificate names basic's PD (the Service the operator checks), not other-pd-0's host
    ClusterApi api = tlsPeerRead(TestCertificates.componentNames("basic", "ns", "pd"));
    assertEquals(Optional.empty(), api.pdReadThrough());
    assertThrows(IOException.class, api::pdHealth);
  }

  @Test
  void peerEndpointsFollowTheMemberTemplateAndKeepExternalUrls() {
    ComponentUrls defaults = ComponentUrls.defaults();
    List<PdPeerEndpoints.Endpoint> endpoints = PdPeerEndpoints.of(peers(
        peer("b-pd-0.b-pd-peer.ns2.svc.east.local",
            "http://b-pd-0.b-pd-peer.ns2.svc.east.local:2379", true),
        peer("ext", "https://pd.example.test:2379/", false),
        peer("nourl", "", true)), defaults);
    assertEquals(List.of(
        new PdPeerEndpoints.Endpoint("b-pd-0.b-pd-peer.ns2.svc.east.local",
            URI.create("http://b-pd-0.b-pd-peer.ns2.svc.east.local:2379"),
            "b-pd-0.b-pd-peer.ns2.svc.east.local"),
        new PdPeerEndpoints.Endpoint("ext", URI.create("https://pd.example.test:2379"),
            "pd.example.test")), endpoints);
  }
}
