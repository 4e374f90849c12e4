package io.tidb.operator.pd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tidb.operator.pdsim.ClusterKey;
import io.tidb.operator.pdsim.ClusterPods;
import io.tidb.operator.pdsim.FaultRule;
import io.tidb.operator.pdsim.PdSimulatorServer;
import io.tidb.operator.pdsim.PodInstance;
import io.tidb.operator.pdsim.RecordedCall;
import io.tidb.operator.pdsim.SimulatedClusters;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** TiFlash's store-status API against the simulator's TiFlash servers. */
class TiflashClientTest {

  private static final ClusterKey KEY = new ClusterKey("ns1", "basic");

  private PdSimulatorServer simulator;
  private TiflashClient client;

  @BeforeEach
  void start() throws Exception {
    simulator = PdSimulatorServer.start(new SimulatedClusters());
    client = new TiflashClient(ComponentHttp.plain(Duration.ofSeconds(5)), Duration.ofSeconds(10));
    ClusterPods pods = new ClusterPods(List.of(), List.of(),
        List.of(new PodInstance("basic-tiflash-0", "u0", true),
            new PodInstance("basic-tiflash-1", "u1", false)), List.of());
    simulator.clusters().syncPods(KEY, Map.of(KEY, pods));
  }

  @AfterEach
  void stop() {
    simulator.close();
  }

  private URI tiflash(String pod) {
    return URI.create(simulator.pdUrl(KEY) + "/tiflash/" + pod);
  }

  @Test
  void aRunningServerReportsItsStoreStatus() {
    assertEquals(TiflashClient.RUNNING, client.storeStatus(tiflash("basic-tiflash-0")));
    simulator.clusters().tiflash(KEY).setStoreStatus("basic-tiflash-0", "Ready");
    assertEquals("Ready", client.storeStatus(tiflash("basic-tiflash-0")));
    RecordedCall last = simulator.recorder().calls(KEY).get(1);
    assertEquals(List.of("tiflash", "basic-tiflash-0", "GET", "/tiflash/store-status"),
        List.of(last.component(), last.instance(), last.method(), last.path()));
  }

  @Test
  void aStoppedServerOrAnInjectedFaultIsAnError() {
    assertThrows(PdClientException.class, () -> client.storeStatus(tiflash("basic-tiflash-1")));
    simulator.faults().add(FaultRule.fail("/tiflash/store-status", 500)
        .forInstance("tiflash", "basic-tiflash-0").times(1));
    PdClientException failed =
        assertThrows(PdClientException.class, () -> client.storeStatus(tiflash("basic-tiflash-0")));
    assertEquals(TiflashClient.STORE_STATUS, failed.path());
    assertEquals(TiflashClient.RUNNING, client.storeStatus(tiflash("basic-tiflash-0")));
  }
}
