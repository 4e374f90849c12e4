package io.tidb.operator.pd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tidb.operator.pdsim.ClusterKey;
import io.tidb.operator.pdsim.FaultRule;
import io.tidb.operator.pdsim.PdSimulatorServer;
import io.tidb.operator.pdsim.PodInstance;
import io.tidb.operator.pdsim.SimulatedClusters;
import io.tidb.operator.pdsim.SimulatedTicdcServers;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The TiCDC client against the simulator's TiCDC servers: the drain and resign sequence. */
class TicdcClientTest {

  private static final ClusterKey KEY = new ClusterKey("ns1", "basic");

  private PdSimulatorServer simulator;
  private TicdcClient client;

  @BeforeEach
  void start() throws Exception {
    simulator = PdSimulatorServer.start(new SimulatedClusters());
    client = TicdcClient.create(
        PdClientOptions.defaults().withTimeouts(Duration.ofSeconds(10), Duration.ofSeconds(10)));
    servers().syncPods(List.of(
        new PodInstance("basic-ticdc-0", "u0", true),
        new PodInstance("basic-ticdc-1", "u1", true),
        new PodInstance("basic-ticdc-2", "u2", false)));
  }

  @AfterEach
  void stop() {
    simulator.close();
  }

  private SimulatedTicdcServers servers() {
    return simulator.clusters().ticdc(KEY);
  }

  private URI cdc(String pod) {
    return simulator.ticdcUrl(KEY, pod);
  }

  @Test
  void statusAndCapturesNameTheOwner() {
    TicdcClient.Status s = client.status(cdc("basic-ticdc-0"));
    assertEquals("capture-1", s.id());
    assertTrue(s.owner(), "the first running capture owns");
    assertFalse(client.status(cdc("basic-ticdc-1")).owner());
    List<TicdcClient.Capture> captures = client.captures(cdc("basic-ticdc-1")).list().orElseThrow();
    assertEquals(List.of(
        new TicdcClient.Capture("capture-1", true, "basic-ticdc-0.basic-ticdc-peer.ns1.svc:8301"),
        new TicdcClient.Capture("capture-2", false, "basic-ticdc-1.basic-ticdc-peer.ns1.svc:8301")),
        captures);
    assertThrows(PdClientException.class, () -> client.status(cdc("basic-ticdc-2")),
        "a pod that does not run cannot be reached");
  }

  @Test
  void theOwnerIsRefusedADrainUntilItResigns() {
    assertTrue(client.drain(cdc("basic-ticdc-0"), "capture-1").retry());
    assertEquals(TicdcClient.Resign.ACCEPTED, client.resignOwner(cdc("basic-ticdc-0")));
    assertTrue(client.status(cdc("basic-ticdc-1")).owner(), "ownership moved on");
    assertTrue(client.healthy(cdc("basic-ticdc-1")));

    TicdcClient.Drain first = client.drain(cdc("basic-ticdc-0"), "capture-1");
    assertEquals(3, first.tableCount(), "half of the tables are on it");
    simulator.clusters().stepAll();
    assertEquals(0, client.drain(cdc("basic-ticdc-0"), "capture-1").tableCount(),
        "drained after a step");
    assertEquals(List.of(
        "PUT /api/v1/captures/drain", "POST /api/v1/owner/resign", "GET /status",
        "GET /api/v1/health", "PUT /api/v1/captures/drain", "PUT /api/v1/captures/drain"),
        simulator.calls().stream().map(c -> c.request()).toList(), "every call is recorded");
  }

  @Test
  void anUnknownCaptureIsAnErrorAndInjectedFaultsAreAnswers() {
    assertThrows(PdApiException.class, () -> client.drain(cdc("basic-ticdc-1"), "capture-9"));
    simulator.faults().add(new FaultRule(KEY, "ticdc", "basic-ticdc-1", "PUT",
        "/api/v1/captures/drain", 404, Duration.ZERO, 1));
    assertTrue(client.drain(cdc("basic-ticdc-1"), "capture-2").unsupported());
    simulator.faults().add(new FaultRule(KEY, "ticdc", "basic-ticdc-1", "GET",
        "/api/v1/health", 500, Duration.ZERO, 1));
    assertFalse(client.healthy(cdc("basic-ticdc-1")));
  }
}
