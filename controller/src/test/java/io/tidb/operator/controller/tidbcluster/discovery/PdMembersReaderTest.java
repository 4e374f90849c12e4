package io.tidb.operator.controller.tidbcluster.discovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tidb.operator.pd.ComponentHttp;
import io.tidb.operator.pd.PdClientOptions;
import io.tidb.operator.pd.PdMemberInfo;
import io.tidb.operator.pdsim.ClusterKey;
import io.tidb.operator.pdsim.PdSimulatorServer;
import io.tidb.operator.pdsim.SimulatedClusters;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Discovery lists PD's members from the first place that answers, over real HTTP. */
class PdMembersReaderTest {

  private PdSimulatorServer pd;
  private final ComponentHttp http = PdClientOptions.defaults().newHttpClient();
  private final List<String> hostsAsked = new ArrayList<>();

  @BeforeEach
  void start() throws IOException {
    pd = PdSimulatorServer.start(new SimulatedClusters());
    pd.pd(new ClusterKey("tidb", "basic")).addMember("basic-pd-0");
    pd.pd(new ClusterKey("tidb", "basic")).addMember("basic-pd-1");
  }

  @AfterEach
  void stop() {
    pd.close();
  }

  /** A loopback URL nothing listens on. */
  private static URI closedPort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return URI.create("http://127.0.0.1:" + s.getLocalPort());
    }
  }

  private ClusterView view(List<ClusterView.PdSource> sources) {
    return new ClusterView("joined", "default", "1", 1, "http", "", true, List.of(), List.of(), "",
        sources);
  }

  private PdMembersReader reader(Optional<ClusterView.PdSource> override) {
    return new PdMembersReader(override, host -> {
      hostsAsked.add(host);
      return http;
    }, Duration.ofSeconds(2));
  }

  @Test
  void whenTheOwnPdServiceDoesNotAnswerTheReferencedPdIsAsked() throws Exception {
    URI own = closedPort();
    URI referenced = pd.pdUrl(new ClusterKey("tidb", "basic"));
    List<PdMemberInfo> members = reader(Optional.empty()).members(view(List.of(
        new ClusterView.PdSource(own, "joined-pd.default", "the PD Service joined-pd.default"),
        new ClusterView.PdSource(referenced, "basic-pd.tidb", "the referenced cluster's PD"))));
    assertEquals(java.util.Set.of("basic-pd-0", "basic-pd-1"),
        members.stream().map(PdMemberInfo::name).collect(java.util.stream.Collectors.toSet()));
    assertEquals(List.of("joined-pd.default", "basic-pd.tidb"), hostsAsked,
        "each place is reached with a client checking its own host");
  }

  @Test
  void whenNothingAnswersTheErrorNamesEveryPlaceAsked() throws Exception {
    URI own = closedPort();
    URI peer = closedPort();
    DiscoveryException e = assertThrows(DiscoveryException.class, () -> reader(Optional.empty())
        .members(view(List.of(
            new ClusterView.PdSource(own, "joined-pd.default", "the PD Service joined-pd.default"),
            new ClusterView.PdSource(peer, "basic-pd-0.basic-pd-peer.tidb.svc",
                "PD member basic-pd-0 of status.pd.peerMembers")))));
    assertEquals(503, e.status());
    assertTrue(e.getMessage().contains("the PD Service joined-pd.default at " + own + ": "), e.getMessage());
    assertTrue(e.getMessage().contains("; PD member basic-pd-0 of status.pd.peerMembers at " + peer + ": "),
        e.getMessage());
  }

  @Test
  void aClusterWithNowhereToAskSaysSo() {
    DiscoveryException e = assertThrows(DiscoveryException.class,
        () -> reader(Optional.empty()).members(view(List.of())));
    assertEquals("no PD to ask: the cluster has no PD of its own, no spec.cluster and no "
        + "status.pd.peerMembers", e.getMessage());
  }

  @Test
  void thePdUrlOverrideIsTheOnlyPlaceAsked() throws Exception {
    URI sim = pd.pdUrl(new ClusterKey("tidb", "basic"));
    List<PdMemberInfo> members = reader(Optional.of(PdMembersReader.override(sim, "basic-pd.tidb")))
        .members(view(List.of(new ClusterView.PdSource(closedPort(), "x", "never asked"))));
    assertEquals(2, members.size());
    assertEquals(List.of("basic-pd.tidb"), hostsAsked);
  }
}
