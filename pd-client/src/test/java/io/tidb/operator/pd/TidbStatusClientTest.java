package io.tidb.operator.pd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tidb.operator.pdsim.ClusterKey;
import io.tidb.operator.pdsim.FaultRule;
import io.tidb.operator.pdsim.PdSimulatorServer;
import io.tidb.operator.pdsim.SimulatedClusters;
import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class TidbStatusClientTest {

  private static final ClusterKey KEY = new ClusterKey("ns1", "basic");

  private PdSimulatorServer simulator;
  private TidbStatusClient client;

  @BeforeEach
  void start() throws Exception {
    simulator = PdSimulatorServer.start(new SimulatedClusters());
    client = TidbStatusClient.create(
        PdClientOptions.defaults().withTimeouts(Duration.ofSeconds(10), Duration.ofSeconds(10)));
  }

  @AfterEach
  void stop() {
    simulator.close();
  }

  private URI tidb(String pod) {
    return simulator.tidbStatusUrl(KEY, pod);
  }

  @Test
  void healthyIff200() {
    simulator.clusters().tidb(KEY).setRunning("basic-tidb-0", true);
    assertTrue(client.isHealthy(tidb("basic-tidb-0")));
    assertEquals("GET /status", simulator.calls().get(0).request());
    assertEquals("basic-tidb-0", simulator.calls().get(0).instance());

    simulator.clusters().tidb(KEY).setHealthy("basic-tidb-0", false);
    assertFalse(client.isHealthy(tidb("basic-tidb-0")), "500 while shutting down");
    assertFalse(client.isHealthy(tidb("basic-tidb-1")), "not running");
  }

  @Test
  void slowServerIsUnhealthy() {
    simulator.clusters().tidb(KEY).setRunning("basic-tidb-0", true);
    simulator.faults().add(FaultRule.slow("/status", Duration.ofSeconds(30)));
    TidbStatusClient impatient = TidbStatusClient.create(
        PdClientOptions.defaults().withTimeouts(Duration.ofSeconds(10), Duration.ofSeconds(1)));
    assertFalse(impatient.isHealthy(tidb("basic-tidb-0")));
  }

  @Test
  void unreachableServerIsUnhealthy() {
    URI url = tidb("basic-tidb-0");
    simulator.close();
    assertFalse(client.isHealthy(url));
  }
}
