package io.tidb.operator.pd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tidb.operator.pdsim.ClusterKey;
import io.tidb.operator.pdsim.FaultRule;
import io.tidb.operator.pdsim.PdSimulatorServer;
import io.tidb.operator.pdsim.RecordedCall;
import io.tidb.operator.pdsim.SimulatedClusters;
import io.tidb.operator.pdsim.SimulatedPdCluster;
import io.tidb.operator.pdsim.SimulationSettings;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Every PdClient method against the PD simulator. */
class PdClientTest {

  private static final ClusterKey KEY = new ClusterKey("ns1", "basic");
  private static final long PD0_ID = Long.parseUnsignedLong("13892733406154627210");
  private static final long PD1_ID = 3474484975246189105L;
  private static final long PD2_ID = Long.parseUnsignedLong("18000000000000000001");

  private PdSimulatorServer simulator;
  private SimulatedPdCluster pd;
  private PdClient client;

  @BeforeEach
  void start() throws Exception {
    simulator = PdSimulatorServer.start(new SimulatedClusters(
        SimulationSettings.defaults().withDrainSteps(2), Clock.systemUTC(), new Random(3)));
    pd = simulator.pd(KEY);
    pd.addMember("basic-pd-0", PD0_ID);
    pd.addMember("basic-pd-1", PD1_ID);
    pd.addMember("basic-pd-2", PD2_ID);
    client = PdClient.create(simulator.pdUrl(KEY),
        PdClientOptions.defaults().withTimeouts(Duration.ofSeconds(10), Duration.ofSeconds(10)));
  }

  @AfterEach
  void stop() {
    simulator.close();
  }

  private void tikvStores(int count) {
    for (int i = 0; i < count; i++) {
      pd.addStore("basic-tikv-" + i);
    }
  }

  private List<String> requests() {
    return simulator.calls().stream().map(RecordedCall::request).toList();
  }

  // ---------------------------------------------------------------- members

  @Test
  void healthParsesUnsignedIds() {
    pd.setMemberHealthy("basic-pd-2", false);
    List<PdHealth> health = client.health();
    assertEquals(List.of("basic-pd-1", "basic-pd-0", "basic-pd-2"),
        health.stream().map(PdHealth::name).toList());
    assertEquals("13892733406154627210", health.get(1).memberIdText());
    assertEquals("http://basic-pd-0.basic-pd-peer.ns1.svc:2379", health.get(1).clientUrl());
    assertTrue(health.get(1).healthy());
    assertFalse(health.get(2).healthy());
  }

  @Test
  void clusterIdAboveLongMax() {
    pd.setClusterId(Long.parseUnsignedLong("9372843513410154713"));
    PdCluster cluster = client.cluster();
    assertEquals("9372843513410154713", cluster.idText());
    assertEquals(3, cluster.maxPeerCount());
  }

  @Test
  void leaderAndMembers() {
    PdMemberInfo leader = client.leader();
    assertEquals("basic-pd-0", leader.name());
    assertEquals(PD0_ID, leader.memberId());
    assertEquals(List.of("http://basic-pd-0.basic-pd-peer.ns1.svc:2380"), leader.peerUrls());

    PdMembers members = client.members();
    assertEquals(pd.clusterId(), members.clusterId());
    assertEquals(3, members.members().size());
    assertEquals("v8.5.7", members.member("basic-pd-2").orElseThrow().binaryVersion());
    assertEquals("18000000000000000001",
        members.member("basic-pd-2").orElseThrow().memberIdText());
    assertEquals("basic-pd-0", members.leader().name());
  }

  @Test
  void deleteMemberChecksExistenceFirst() {
    assertTrue(client.deleteMember("basic-pd-2"));
    assertFalse(client.deleteMember("basic-pd-2"));
    assertEquals(List.of("GET /pd/api/v1/members", "DELETE /pd/api/v1/members/name/basic-pd-2",
        "GET /pd/api/v1/members"), requests());
    assertTrue(pd.member("basic-pd-2").isEmpty());
  }

  @Test
  void deleteMemberAccepts404() {
    simulator.faults().add(FaultRule.fail("/pd/api/v1/members/name/", 404).forMethod("DELETE"));
    assertTrue(client.deleteMember("basic-pd-1"));
  }

  @Test
  void deleteMemberFailureCarriesStatusPathAndBody() {
    simulator.faults().add(FaultRule.fail("/pd/api/v1/members/name/", 500).forMethod("DELETE"));
    PdApiException e = assertThrows(PdApiException.class, () -> client.deleteMember("basic-pd-1"));
    assertEquals(500, e.status());
    assertEquals("DELETE", e.method());
    assertEquals("/pd/api/v1/members/name/basic-pd-1", e.path());
    assertTrue(e.bodyExcerpt().contains("ErrInjectedFault"), e.bodyExcerpt());
    assertTrue(e.getMessage().startsWith("DELETE " + simulator.pdUrl(KEY)
        + "/pd/api/v1/members/name/basic-pd-1 answered 500: \"[PD:simulator:ErrInjectedFault]"),
        e.getMessage());
  }

  @Test
  void deleteMemberByIdAboveLongMax() {
    assertTrue(client.deleteMemberById(PD2_ID));
    assertTrue(requests().contains("DELETE /pd/api/v1/members/id/18000000000000000001"));
    assertFalse(client.deleteMemberById(PD2_ID));
    assertEquals(2, pd.members().size());
  }

  @Test
  void transferLeader() {
    client.transferLeader("basic-pd-1");
    assertEquals("basic-pd-1", pd.leader().orElseThrow().name());
    PdApiException unknown =
        assertThrows(PdApiException.class, () -> client.transferLeader("basic-pd-9"));
    assertEquals(500, unknown.status());
    assertEquals("\"no valid pd to transfer etcd leader\"", unknown.bodyExcerpt());

    simulator.faults().add(FaultRule.fail("/pd/api/v1/leader/transfer/", 404));
    client.transferLeader("basic-pd-2");
  }

  @Test
  void memberReadiness() {
    pd.setMemberRegionsLoaded("basic-pd-1", false);
    assertTrue(client.isMemberReady(simulator.pdMemberUrl(KEY, "basic-pd-0")));
    assertFalse(client.isMemberReady(simulator.pdMemberUrl(KEY, "basic-pd-1")));
    assertEquals(List.of("GET /pd/api/v2/ready", "GET /pd/api/v2/ready"), requests());
    assertEquals("basic-pd-1", simulator.calls().get(1).instance());

    simulator.faults().add(FaultRule.fail("/pd/api/v2/ready", 404).times(1));
    assertTrue(client.isMemberReady(simulator.pdMemberUrl(KEY, "basic-pd-1")),
        "404: PD before v8.5.2");
    simulator.faults().add(FaultRule.fail("/pd/api/v2/ready", 502));
    assertEquals(502, assertThrows(PdApiException.class,
        () -> client.isMemberReady(simulator.pdMemberUrl(KEY, "basic-pd-0"))).status());
  }

  // ---------------------------------------------------------------- stores

  @Test
  void storesBeforeBootstrapThrowNotBootstrapped() {
    PdNotBootstrappedException e =
        assertThrows(PdNotBootstrappedException.class, () -> client.stores());
    assertEquals(500, e.status());
    assertEquals("/pd/api/v1/stores", e.path());
  }

  @Test
  void storesAndTombstones() {
    tikvStores(3);
    pd.addTiFlashStore("basic-tiflash-0");
    List<StoreInfo> stores = client.stores();
    assertEquals(4, stores.size());
    StoreInfo first = stores.get(0);
    assertEquals("basic-tikv-0.basic-tikv-peer.ns1.svc:20160", first.address());
    assertEquals("basic-tikv-0", first.podName());
    assertEquals(StoreState.UP, first.state());
    assertEquals("100GiB", first.capacity());
    assertTrue(first.regionCount() > 0);
    assertTrue(stores.get(3).isTiFlash());
    assertEquals("basic-tiflash-0", stores.get(3).podName());
    assertEquals(4, client.allStores().size(), "no Tombstone store yet: the same four");
    assertEquals(List.of("GET /pd/api/v1/stores", "GET /pd/api/v1/stores?state=0&state=1&state=2"),
        requests());
  }

  @Test
  void leaderCountsFollowEvictionThroughPolls() {
    tikvStores(3);
    for (int i = 0; i < 10; i++) {
      pd.step();
    }
    assertEquals(List.of(20, 20, 20),
        client.stores().stream().map(StoreInfo::leaderCount).toList());
    client.beginEvictLeader(2);
    int previous = 20;
    for (int poll = 0; poll < 5 && previous > 0; poll++) {
      int now = client.store(2).orElseThrow().leaderCount();
      assertTrue(now < previous, "leader count falls with every poll");
      previous = now;
    }
    assertEquals(0, previous);
    assertEquals(60, client.stores().stream().mapToInt(StoreInfo::leaderCount).sum());
  }

  @Test
  void storeById() {
    tikvStores(1);
    assertEquals(StoreState.UP, client.store(1).orElseThrow().state());
    assertTrue(client.store(99).isEmpty());
  }

  @Test
  void deleteStoreMovesThroughOfflineToTombstone() {
    tikvStores(4);
    assertTrue(client.deleteStore(4));
    assertEquals(StoreState.OFFLINE, client.store(4).orElseThrow().state());
    assertEquals(StoreState.TOMBSTONE, client.store(4).orElseThrow().state());
    assertEquals(List.of(StoreState.UP, StoreState.UP, StoreState.UP, StoreState.TOMBSTONE),
        client.allStores().stream().map(StoreInfo::state).toList());
    assertEquals(List.of(1L, 2L, 3L), client.stores().stream().map(StoreInfo::id).toList(),
        "without states asked for, PD leaves Tombstone stores out");
    assertFalse(client.deleteStore(4), "a Tombstone store is not listed: nothing to do");
    assertFalse(client.deleteStore(99));
    assertEquals(List.of("GET /pd/api/v1/stores", "DELETE /pd/api/v1/store/4",
        "GET /pd/api/v1/store/4", "GET /pd/api/v1/store/4", "GET /pd/api/v1/stores?state=0&state=1&state=2",
        "GET /pd/api/v1/stores", "GET /pd/api/v1/stores", "GET /pd/api/v1/stores"), requests());
  }

  @Test
  void deleteStoreRefusedByPdIsAnError() {
    tikvStores(3);
    PdApiException e = assertThrows(PdApiException.class, () -> client.deleteStore(3));
    assertEquals(400, e.status());
    assertTrue(e.bodyExcerpt().contains("ErrStoresNotEnough"));
  }

  @Test
  void deleteStoreAccepts404And410() {
    tikvStores(4);
    simulator.faults().add(FaultRule.fail("/pd/api/v1/store/", 410).forMethod("DELETE").times(1));
    assertTrue(client.deleteStore(4));
    simulator.faults().add(FaultRule.fail("/pd/api/v1/store/", 404).forMethod("DELETE").times(1));
    assertTrue(client.deleteStore(4));
  }

  @Test
  void storeLabels() {
    tikvStores(1);
    client.setStoreLabels(1, Map.of("topology.kubernetes.io/zone", "z1"));
    assertEquals(Map.of("topology.kubernetes.io/zone", "z1"),
        client.store(1).orElseThrow().labels());
    assertEquals("{\"topology.kubernetes.io/zone\":\"z1\"}", simulator.calls().get(0).body());
    PdApiException invalid = assertThrows(PdApiException.class,
        () -> client.setStoreLabels(1, Map.of("zone", "bad value")));
    assertEquals(400, invalid.status());
    assertEquals(500, assertThrows(PdApiException.class,
        () -> client.setStoreLabels(99, Map.of("zone", "z1"))).status());
  }

  // ---------------------------------------------------------------- config and schedulers

  @Test
  void replicationConfig() {
    tikvStores(1);
    pd.setReplication(pd.replication().withLocationLabels(List.of("zone", "host")));
    PdReplicationConfig config = client.replicationConfig();
    assertEquals(3, config.maxReplicas());
    assertEquals(List.of("zone", "host"), config.locationLabels());
    assertTrue(config.enablePlacementRules());
  }

  @Test
  void enablePlacementRules() {
    tikvStores(1);
    pd.setReplication(new io.tidb.operator.pdsim.SimulatedReplicationConfig(
        3, List.of(), false, false, false, ""));
    client.enablePlacementRules();
    assertTrue(pd.replication().enablePlacementRules());
    assertEquals("{\"enable-placement-rules\":\"true\"}", simulator.calls().get(0).body());
  }

  @Test
  void tiflashReplicasNeededIsTheHighestCountOfTheTiflashPlacementRules() {
    tikvStores(1);
    assertEquals(0, client.tiflashReplicasNeeded(), "no table with TiFlash replicas: PD says null");
    pd.setTiflashReplicas(45, 2);
    pd.setTiflashReplicas(61, 3);
    pd.setTiflashReplicas(70, 1);
    assertEquals(3, client.tiflashReplicasNeeded());
    assertEquals("/pd/api/v1/config/rules/group/tiflash",
        simulator.calls().get(simulator.calls().size() - 1).path());
    pd.setReplication(new io.tidb.operator.pdsim.SimulatedReplicationConfig(
        3, List.of(), false, false, false, ""));
    assertEquals(412, assertThrows(PdApiException.class, client::tiflashReplicasNeeded).status(),
        "placement rules off: PD refuses the rule API");
  }

  @Test
  void tiflashReplicaRulesAreReadFromTheirLabelConstraints() {
    assertEquals(2, PdJson.tiflashReplicasNeeded("""
        [{"group_id":"tiflash","id":"table-45-r","role":"learner","count":2,
          "label_constraints":[{"key":"engine","op":"in","values":["tiflash"]}]},
         {"group_id":"tiflash","id":"other","role":"voter","count":5,
          "label_constraints":[{"key":"zone","op":"in","values":["tiflash"]}]}]"""));
    assertEquals(0, PdJson.tiflashReplicasNeeded("null"));
  }

  @Test
  void evictLeaderBeginListAndEnd() {
    tikvStores(3);
    client.beginEvictLeader(1);
    client.beginEvictLeader(3);
    client.beginEvictLeader(3);
    assertEquals(Set.of(1L, 3L), client.evictLeaderStoreIds());
    assertTrue(client.schedulers().contains("evict-leader-scheduler"));

    client.endEvictLeader(1);
    client.endEvictLeader(1);
    assertEquals(Set.of(3L), client.evictLeaderStoreIds());
    client.endEvictLeader(3);
    assertEquals(Set.of(), client.evictLeaderStoreIds());
    assertEquals("{\"name\":\"evict-leader-scheduler\",\"store_id\":1}",
        simulator.calls().get(0).body());
    assertTrue(requests().contains("DELETE /pd/api/v1/schedulers/evict-leader-scheduler-1"));
  }

  @Test
  void beginEvictLeaderToleratesAFailedAnswerWhenTheStoreIsEvicted() {
    tikvStores(3);
    client.beginEvictLeader(2);
    simulator.recorder().clear();
    simulator.faults().add(FaultRule.fail("/pd/api/v1/schedulers", 500).forMethod("POST"));
    client.beginEvictLeader(2);
    assertEquals(List.of("POST /pd/api/v1/schedulers", "GET /pd/api/v1/schedulers",
        "GET /pd/api/v1/scheduler-config/evict-leader-scheduler/list"), requests());

    PdApiException e = assertThrows(PdApiException.class, () -> client.beginEvictLeader(1));
    assertEquals(500, e.status());
    assertEquals("POST", e.method());
  }

  @Test
  void beginEvictLeaderForAnUnknownStoreFails() {
    tikvStores(3);
    PdApiException e = assertThrows(PdApiException.class, () -> client.beginEvictLeader(99));
    assertEquals(500, e.status());
    assertTrue(e.bodyExcerpt().contains("store 99 not found"));
  }

  @Test
  void endEvictLeaderFailsOnlyWhileTheStoreIsStillEvicted() {
    tikvStores(3);
    client.beginEvictLeader(2);
    simulator.faults().add(FaultRule.fail("/pd/api/v1/schedulers/", 500).forMethod("DELETE"));
    assertEquals(500, assertThrows(PdApiException.class, () -> client.endEvictLeader(2))
        .status());
    pd.removeEvictLeader(2);
    client.endEvictLeader(2);
  }

  // ---------------------------------------------------------------- transport

  @Test
  void slowPdTimesOut() {
    simulator.faults().add(FaultRule.slow("/pd/api/v1/health", Duration.ofSeconds(30)));
    PdClient impatient = PdClient.create(simulator.pdUrl(KEY),
        PdClientOptions.defaults().withTimeouts(Duration.ofSeconds(10), Duration.ofSeconds(1)));
    PdConnectionException e = assertThrows(PdConnectionException.class, impatient::health);
    assertTrue(e.isTimeout());
    assertEquals("/pd/api/v1/health", e.path());
    assertTrue(e.getMessage().endsWith("/pd/api/v1/health failed: timed out"), e.getMessage());
  }

  @Test
  void unreachablePdIsAConnectionError() {
    URI closed = simulator.pdUrl(KEY);
    simulator.close();
    PdConnectionException e = assertThrows(PdConnectionException.class, () -> client.health());
    assertFalse(e.isTimeout());
    assertTrue(closed.toString().startsWith("http://127.0.0.1:"));
  }

  @Test
  void noLeaderIs503() {
    pd.setMemberHealthy("basic-pd-1", false);
    pd.setMemberHealthy("basic-pd-2", false);
    PdApiException e = assertThrows(PdApiException.class, () -> client.members());
    assertEquals(503, e.status());
    assertTrue(e.bodyExcerpt().contains("ErrRedirectNoLeader"));
    assertEquals(3, client.health().size(), "health is answered by any member");
  }

  @Test
  void undecodableBodyIsAnApiErrorNamingTheField() throws Exception {
    try (FixedResponseServer stub = FixedResponseServer.start(200,
        "{\"count\":1,\"stores\":[{\"store\":{\"id\":1,\"address\":\"a:1\","
            + "\"state_name\":\"Up\"},\"status\":{\"capacity\":100}}]}")) {
      PdClient stubbed = PdClient.create(stub.url(), PdClientOptions.defaults());
      PdApiException e = assertThrows(PdApiException.class, stubbed::stores);
      assertEquals(200, e.status());
      assertTrue(e.getMessage().contains("cannot decode: stores[0].status.capacity: invalid "
          + "value 100: expected a size string"), e.getMessage());
    }
  }

  @Test
  void tlsContextIsHandedToTheHttpClient() throws Exception {
    javax.net.ssl.SSLContext context = javax.net.ssl.SSLContext.getInstance("TLS");
    context.init(null, null, null);
    assertEquals(context,
        PdClientOptions.defaults().withSslContext(context).newHttpClient().sslContext());
    assertEquals(Duration.ofSeconds(5),
        PdClientOptions.defaults().newHttpClient().connectTimeout());
    assertThrows(IllegalArgumentException.class,
        () -> PdClientOptions.defaults().withTimeouts(Duration.ZERO, Duration.ofSeconds(1)));
  }
}
