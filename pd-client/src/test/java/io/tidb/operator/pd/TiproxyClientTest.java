package io.tidb.operator.pd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tidb.operator.pdsim.ClusterKey;
import io.tidb.operator.pdsim.ClusterPods;
import io.tidb.operator.pdsim.PdSimulatorServer;
import io.tidb.operator.pdsim.PodInstance;
import io.tidb.operator.pdsim.SimulatedClusters;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** TiProxy's health and config API against the simulator's TiProxy servers. */
class TiproxyClientTest {

  private static final ClusterKey KEY = new ClusterKey("ns1", "basic");

  private PdSimulatorServer simulator;
  private TiproxyClient client;

  @BeforeEach
  void start() throws Exception {
    simulator = PdSimulatorServer.start(new SimulatedClusters());
    client = new TiproxyClient(ComponentHttp.plain(Duration.ofSeconds(5)), Duration.ofSeconds(10));
    ClusterPods pods = new ClusterPods(List.of(), List.of(), List.of(), List.of(), List.of(),
        List.of(new PodInstance("basic-tiproxy-0", "u0", true),
            new PodInstance("basic-tiproxy-1", "u1", false)), List.of());
    simulator.clusters().syncPods(KEY, Map.of(KEY, pods));
  }

  @AfterEach
  void stop() {
    simulator.close();
  }

  private URI proxy(String pod) {
    return URI.create(simulator.pdUrl(KEY) + "/tiproxy/" + pod);
  }

  @Test
  void aHealthyServerAnswersItsHealthAnUnhealthyOrStoppedOneIsAnError() {
    assertEquals("{\"config_checksum\":1}", client.health(proxy("basic-tiproxy-0")));
    simulator.clusters().tiproxy(KEY).setHealthy("basic-tiproxy-0", false);
    PdClientException unhealthy =
        assertThrows(PdClientException.class, () -> client.health(proxy("basic-tiproxy-0")));
    assertEquals(TiproxyClient.HEALTH, unhealthy.path());
    assertThrows(PdClientException.class, () -> client.health(proxy("basic-tiproxy-1")));
  }

  @Test
  void labelsAreSentAsOneTomlTable() {
    client.setLabels(proxy("basic-tiproxy-0"), Map.of("zone", "z1", "host", "node \"a\""));
    assertEquals("[labels]\n\"host\" = \"node \\\"a\\\"\"\n\"zone\" = \"z1\"\n",
        simulator.clusters().tiproxy(KEY).configSet().get("basic-tiproxy-0"));
  }
}
