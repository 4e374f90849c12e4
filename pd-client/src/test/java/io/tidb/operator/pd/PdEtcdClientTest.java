package io.tidb.operator.pd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tidb.operator.pdsim.ClusterKey;
import io.tidb.operator.pdsim.FaultRule;
import io.tidb.operator.pdsim.PdSimulatorServer;
import io.tidb.operator.pdsim.SimulatedClusters;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The etcd gateway client against the PD simulator: the calls, their order, and failures. */
class PdEtcdClientTest {

  private static final ClusterKey KEY = new ClusterKey("ns1", "basic");

  private PdSimulatorServer simulator;
  private PdEtcdClient client;

  @BeforeEach
  void start() throws Exception {
    simulator = PdSimulatorServer.start(new SimulatedClusters());
    simulator.clusters().pd(KEY).addMember("basic-pd-0", 1L);
    PdClientOptions options =
        PdClientOptions.defaults().withTimeouts(Duration.ofSeconds(10), Duration.ofSeconds(10));
    client = new PdEtcdClient(simulator.pdUrl(KEY), options.newHttpClient(), Duration.ofSeconds(10));
  }

  @AfterEach
  void stop() {
    simulator.close();
  }

  @Test
  void putWithTtlGrantsALeaseThenPuts() {
    client.putWithTtl("/topology/grafana", "{\"ip\":\"m-grafana.ns1.svc\",\"port\":3000}",
        Duration.ofMinutes(10));
    assertEquals(Optional.of("{\"ip\":\"m-grafana.ns1.svc\",\"port\":3000}"),
        client.get("/topology/grafana"));
    assertEquals(Optional.empty(), client.get("/topology/prometheus"));
    assertEquals(List.of("POST /v3/lease/grant", "POST /v3/kv/put", "POST /v3/kv/range",
            "POST /v3/kv/range"),
        simulator.calls().stream().map(c -> c.request()).toList());
  }

  @Test
  void bytesThatAreNotTextSurviveThePutAndThePrefixRead() {
    byte[] tso = java.nio.ByteBuffer.allocate(8).putLong(0x0652_3a7f_c0ff_ee80L).array();
    client.put("/tidb/br-stream/checkpoint/pitr/central_global", tso);
    client.put("/tidb/br-stream/checkpoint/pitr2/central_global", new byte[] {1});
    java.util.Map<String, byte[]> read = client.rangeBytes("/tidb/br-stream/checkpoint/pitr/");
    assertEquals(List.of("/tidb/br-stream/checkpoint/pitr/central_global"), List.copyOf(read.keySet()),
        "only the task's own keys, not pitr2's");
    org.junit.jupiter.api.Assertions.assertArrayEquals(tso, read.get("/tidb/br-stream/checkpoint/pitr/central_global"));
    assertEquals(java.util.Map.of(), client.rangeBytes("/tidb/br-stream/checkpoint/other/"));
  }

  @Test
  void deleteRemovesThatKeyOnly() {
    client.put("/tidb/br-stream/pause/pitr", new byte[0]);
    client.put("/tidb/br-stream/pause/pitr2", new byte[0]);
    assertEquals(true, client.delete("/tidb/br-stream/pause/pitr"));
    assertEquals(false, client.delete("/tidb/br-stream/pause/pitr"), "gone already");
    assertEquals(List.of("/tidb/br-stream/pause/pitr2"),
        List.copyOf(client.rangeBytes("/tidb/br-stream/pause/").keySet()));
  }

  @Test
  void aFailedGrantPutsNothing() {
    simulator.faults().add(FaultRule.fail("/v3/lease/grant", 500));
    assertThrows(PdApiException.class,
        () -> client.putWithTtl("/topology/prometheus", "{}", Duration.ofMinutes(10)));
    simulator.faults().clear();
    assertEquals(Optional.empty(), client.get("/topology/prometheus"));
  }
}
