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

/** The binlog registry read through PD's etcd gateway, and a pump's offline request. */
class PumpClientTest {

  private static final ClusterKey KEY = new ClusterKey("ns1", "basic");
  private static final Duration TIMEOUT = Duration.ofSeconds(10);

  private PdSimulatorServer simulator;
  private PdEtcdClient etcd;
  private PumpClient pumps;

  @BeforeEach
  void start() throws Exception {
    simulator = PdSimulatorServer.start(new SimulatedClusters());
    ComponentHttp http = ComponentHttp.plain(Duration.ofSeconds(5));
    etcd = new PdEtcdClient(simulator.pdUrl(KEY), http, TIMEOUT);
    pumps = new PumpClient(http, TIMEOUT);
    sync(true, true);
  }

  @AfterEach
  void stop() {
    simulator.close();
  }

  private void sync(boolean first, boolean second) {
    ClusterPods pods = new ClusterPods(List.of(new PodInstance("basic-pd-0", "pd0", true)),
        List.of(), List.of(), List.of(), List.of(),
        List.of(), List.of(new PodInstance("basic-pump-0", "u0", first),
            new PodInstance("basic-pump-1", "u1", second)));
    simulator.clusters().syncPods(KEY, Map.of(KEY, pods));
  }

  private URI pump(String pod) {
    return URI.create(simulator.pdUrl(KEY) + "/pump/" + pod);
  }

  @Test
  void runningPumpsRegisterOnlineUnderTheBinlogPrefixOnly() {
    etcd.putWithTtl("/topology/grafana", "{}", Duration.ofMinutes(1));
    assertEquals(List.of(
        new PumpClient.Node("basic-pump-0:8250", "basic-pump-0.basic-pump:8250", "online"),
        new PumpClient.Node("basic-pump-1:8250", "basic-pump-1.basic-pump:8250", "online")),
        PumpClient.registry(etcd));
  }

  @Test
  void anOfflineRequestClosesThePumpAndItIsOfflineAfterAStep() {
    pumps.offline(pump("basic-pump-1"), "basic-pump-1:8250");
    assertEquals("closing", PumpClient.registry(etcd).get(1).state());
    simulator.clusters().stepAll();
    assertEquals("offline", PumpClient.registry(etcd).get(1).state());
    assertEquals("online", PumpClient.registry(etcd).get(0).state());
  }

  @Test
  void anotherPumpsNodeIdOrAnUnreachablePumpIsAnError() {
    PdClientException wrong = assertThrows(PdClientException.class,
        () -> pumps.offline(pump("basic-pump-0"), "basic-pump-1:8250"));
    assertEquals("PUT", wrong.method());
    sync(true, false);
    assertThrows(PdClientException.class,
        () -> pumps.offline(pump("basic-pump-1"), "basic-pump-1:8250"));
    assertEquals("online", PumpClient.registry(etcd).get(1).state(),
        "a stopped pump keeps its entry, as a crashed one does");
  }

  @Test
  void aPrefixRangeEndsAtThePrefixSuccessor() {
    assertEquals("/tidb-binlog/v1/pumps0", PdEtcdClient.prefixEnd("/tidb-binlog/v1/pumps/"));
    etcd.putWithTtl("/tidb-binlog/v1/pumps0", "{}", Duration.ofMinutes(1));
    assertEquals(2, etcd.range("/tidb-binlog/v1/pumps/").size());
  }
}
