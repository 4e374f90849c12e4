package io.tidb.operator.pd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Decoding PD's JSON examples (pd-api.md) and its type traps. */
class PdJsonTest {

  @Test
  void theSnapshotRecoveringMarkIsABoolean() {
    assertTrue(PdJson.marked("{\"marked\":true}"));
    assertFalse(PdJson.marked("{\"marked\":false}"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> PdJson.marked("{\"marked\":\"yes\"}"));
    assertEquals("marked: invalid value \"yes\": expected a boolean", e.getMessage());
  }

  @Test
  void healthWithIdsAboveLongMaxAndNullClientUrls() {
    List<PdHealth> health = PdJson.health("""
        [
          {"name":"basic-pd-0","member_id":13892733406154627210,"client_urls":["http://basic-pd-0.basic-pd-peer.default.svc:2379"],"health":true},
          {"name":"","member_id":18446744073709551615,"client_urls":null,"health":false}
        ]""");
    assertEquals("13892733406154627210", health.get(0).memberIdText());
    assertTrue(health.get(0).memberId() < 0, "held as the unsigned bits of a long");
    assertEquals("http://basic-pd-0.basic-pd-peer.default.svc:2379", health.get(0).clientUrl());
    assertTrue(health.get(0).healthy());
    assertEquals("18446744073709551615", health.get(1).memberIdText());
    assertEquals(List.of(), health.get(1).clientUrls());
    assertNull(health.get(1).clientUrl());
  }

  @Test
  void idsOutsideTheUnsignedRangeAreRejectedNamingTheField() {
    IllegalArgumentException tooBig = assertThrows(IllegalArgumentException.class, () ->
        PdJson.cluster("{\"id\":18446744073709551616,\"max_peer_count\":3}"));
    assertEquals("id: invalid value 18446744073709551616: out of the unsigned 64-bit range",
        tooBig.getMessage());
    IllegalArgumentException negative = assertThrows(IllegalArgumentException.class, () ->
        PdJson.health("[{\"name\":\"a\",\"member_id\":-1,\"health\":true}]"));
    assertTrue(negative.getMessage().startsWith("[0].member_id: invalid value -1"));
  }

  @Test
  void clusterIdAboveLongMax() {
    PdCluster cluster = PdJson.cluster("{\"id\":9372843513410154713,\"max_peer_count\":3}");
    assertEquals("9372843513410154713", cluster.idText());
    assertEquals(3, cluster.maxPeerCount());
  }

  @Test
  void membersWithLeaderAndOmittedFields() {
    PdMembers members = PdJson.members("""
        {"header":{"cluster_id":7372843513410154713},
         "members":[{"name":"basic-pd-0","member_id":13892733406154627210,
           "peer_urls":["http://p:2380"],"client_urls":["http://c:2379"],"deploy_path":"/",
           "binary_version":"v8.5.1","git_hash":"a1"}],
         "leader":{"name":"basic-pd-0","member_id":13892733406154627210,
           "peer_urls":["http://p:2380"],"client_urls":["http://c:2379"]}}""");
    assertEquals(7372843513410154713L, members.clusterId());
    assertEquals("v8.5.1", members.members().get(0).binaryVersion());
    assertEquals("basic-pd-0", members.leader().name());
    assertEquals("", members.leader().binaryVersion());
    assertTrue(members.member(Long.parseUnsignedLong("13892733406154627210")).isPresent());

    PdMembers empty = PdJson.members("{\"header\":{\"cluster_id\":1}}");
    assertTrue(empty.members().isEmpty());
    assertNull(empty.leader());
  }

  @Test
  void storesFromThePdExample() {
    List<StoreInfo> stores = PdJson.stores("""
        {"count": 2, "stores": [
          {"store": {"id": 1, "address": "basic-tikv-0.basic-tikv-peer.default.svc:20160",
             "labels": [{"key": "zone", "value": "z1"}, {"key": "host", "value": "node-1"}],
             "version": "8.5.1", "status_address": "basic-tikv-0.basic-tikv-peer.default.svc:20180",
             "start_timestamp": 1736928000, "last_heartbeat": 1736931612123456789,
             "node_state": 1, "state_name": "Up"},
           "status": {"capacity": "100GiB", "available": "95.12GiB", "used_size": "1.203GiB",
             "leader_count": 120, "leader_weight": 1, "region_count": 360,
             "region_score": 27032.51, "start_ts": "2025-01-15T08:00:00Z",
             "uptime": "1h0m12.123456789s"}},
          {"store": {"id": 7, "address": "basic-tiflash-0.basic-tiflash-peer.default.svc:3930",
             "state": 1, "labels": [{"key": "engine", "value": "tiflash"}],
             "node_state": 2, "state_name": "Offline"},
           "status": {"capacity": "0B"}},
          {"store": null, "status": {}}
        ]}""");
    assertEquals(2, stores.size(), "entries with a null store are skipped");
    StoreInfo tikv = stores.get(0);
    assertEquals(1, tikv.id());
    assertEquals("basic-tikv-0", tikv.podName());
    assertEquals(Map.of("zone", "z1", "host", "node-1"), tikv.labels());
    assertEquals(StoreState.UP, tikv.state());
    assertEquals(120, tikv.leaderCount());
    assertEquals(360, tikv.regionCount());
    assertEquals("100GiB", tikv.capacity());
    assertEquals("95.12GiB", tikv.available());
    assertEquals(Instant.ofEpochSecond(1736931612L, 123456789), tikv.lastHeartbeat());
    assertFalse(tikv.isTiFlash());

    StoreInfo flash = stores.get(1);
    assertTrue(flash.isTiFlash());
    assertEquals(StoreState.OFFLINE, flash.state());
    assertEquals(0, flash.leaderCount());
    assertNull(flash.lastHeartbeat());
  }

  @Test
  void sizesMustBeStrings() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () ->
        PdJson.stores("{\"count\":1,\"stores\":[{\"store\":{\"id\":1,\"address\":\"a:1\","
            + "\"state_name\":\"Up\"},\"status\":{\"capacity\":107374182400}}]}"));
    assertEquals("stores[0].status.capacity: invalid value 107374182400: expected a size "
        + "string such as \"100GiB\"", e.getMessage());
  }

  @Test
  void unknownStateNamesAreReported() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () ->
        PdJson.store("{\"store\":{\"id\":1,\"address\":\"a:1\",\"state_name\":\"Serving\"},"
            + "\"status\":{}}"));
    assertTrue(e.getMessage().startsWith("store.state_name: unknown value \"Serving\""),
        e.getMessage());
  }

  @Test
  void disconnectedAndDownAreDistinctStates() {
    assertEquals(StoreState.DISCONNECTED, StoreState.fromStateName("Disconnected"));
    assertEquals(StoreState.DOWN, StoreState.fromStateName("Down"));
    assertEquals(StoreState.TOMBSTONE, StoreState.fromStateName("Tombstone"));
  }

  @Test
  void replicationConfigWithQuotedBooleansAndCommaLabels() {
    PdReplicationConfig config = PdJson.replication("""
        {"replication": {"max-replicas": 3, "location-labels": "zone,host",
          "strictly-match-label": "false", "enable-placement-rules": "true",
          "enable-placement-rules-cache": "false", "isolation-level": ""}}""");
    assertEquals(new PdReplicationConfig(3, List.of("zone", "host"), true), config);
    assertEquals(List.of(), PdJson.replication(
        "{\"replication\":{\"max-replicas\":1,\"location-labels\":\"\"}}").locationLabels());
    assertThrows(IllegalArgumentException.class, () -> PdJson.replication(
        "{\"replication\":{\"max-replicas\":\"3\"}}"));
    assertThrows(IllegalArgumentException.class, () -> PdJson.replication(
        "{\"replication\":{\"max-replicas\":3,\"enable-placement-rules\":\"yes\"}}"));
  }

  @Test
  void evictLeaderConfigKeysAreStoreIds() {
    assertEquals(Set.of(5L, 7L), PdJson.evictLeaderStoreIds("""
        {"store-id-ranges": {"5": [{"end-key": "", "start-key": ""}],
         "7": [{"end-key": "", "start-key": ""}]}, "batch": 3}"""));
  }

  @Test
  void malformedBodies() {
    assertThrows(IllegalArgumentException.class, () -> PdJson.health("{not json"));
    assertThrows(IllegalArgumentException.class, () -> PdJson.health(""));
    IllegalArgumentException notArray =
        assertThrows(IllegalArgumentException.class, () -> PdJson.health("{\"a\":1}"));
    assertEquals("health: invalid value {\"a\":1}: expected an array", notArray.getMessage());
  }
}
