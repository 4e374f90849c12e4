package io.tidb.operator.pdsim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Instant;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** PD's routes, status codes and bodies, compared with pd-api.md. */
class PdApiTest {

  private static final ClusterKey KEY = new ClusterKey("default", "basic");
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final long PD0_ID = Long.parseUnsignedLong("13892733406154627210");
  private static final long PD1_ID = 3474484975246189105L;
  private static final String NOT_BOOTSTRAPPED =
      "\"[PD:cluster:ErrNotBootstrapped]TiKV cluster not bootstrapped, please start TiKV first\"\n";

  private final MutableClock clock = new MutableClock(Instant.parse("2025-01-15T08:00:00Z"));
  private SimulatedPdCluster cluster =
      new SimulatedPdCluster(KEY, SimulationSettings.defaults(), clock, new Random(1));
  private PdApi api = new PdApi(cluster);

  private SimResponse call(String method, String pathAndQuery, String body) {
    return api.handle(SimRequest.of(method, pathAndQuery, body), null);
  }

  private SimResponse get(String pathAndQuery) {
    return call("GET", pathAndQuery, "");
  }

  private static JsonNode json(SimResponse response) throws Exception {
    return MAPPER.readTree(response.body());
  }

  private void twoMembers() {
    cluster.addMember("basic-pd-0", PD0_ID);
    cluster.addMember("basic-pd-1", PD1_ID);
  }

  private void bootstrappedWithStores(int count) {
    cluster.addMember("basic-pd-0", PD0_ID);
    for (int i = 0; i < count; i++) {
      cluster.addStore("basic-tikv-" + i);
    }
  }

  @Test
  void healthListsEveryMemberWithUnsignedIds() {
    twoMembers();
    cluster.setMemberHealthy("basic-pd-1", false);

    SimResponse response = get("/pd/api/v1/health");
    assertEquals(200, response.status());
    assertEquals("application/json; charset=UTF-8", response.contentType());
    assertEquals("""
        [
          {
            "name": "basic-pd-1",
            "member_id": 3474484975246189105,
            "client_urls": [
              "http://basic-pd-1.basic-pd-peer.default.svc:2379"
            ],
            "health": false
          },
          {
            "name": "basic-pd-0",
            "member_id": 13892733406154627210,
            "client_urls": [
              "http://basic-pd-0.basic-pd-peer.default.svc:2379"
            ],
            "health": true
          }
        ]
        """, response.body());
  }

  @Test
  void leaderHasExactlyTheFourFieldsOfTheEtcdLeaderKey() throws Exception {
    twoMembers();
    assertEquals(MAPPER.readTree("""
        {"name":"basic-pd-0","member_id":13892733406154627210,
         "peer_urls":["http://basic-pd-0.basic-pd-peer.default.svc:2380"],
         "client_urls":["http://basic-pd-0.basic-pd-peer.default.svc:2379"]}"""),
        json(get("/pd/api/v1/leader")));
  }

  @Test
  void membersCarryHeaderLeaderAndEtcdLeader() throws Exception {
    twoMembers();
    cluster.setClusterId(7372843513410154713L);
    JsonNode members = json(get("/pd/api/v1/members"));
    assertEquals(7372843513410154713L, members.at("/header/cluster_id").longValue());
    assertEquals(2, members.get("members").size());
    JsonNode pd0 = members.get("members").get(1);
    assertEquals("basic-pd-0", pd0.get("name").textValue());
    assertEquals("13892733406154627210", pd0.get("member_id").bigIntegerValue().toString());
    assertEquals("/", pd0.get("deploy_path").textValue());
    assertEquals("v8.5.7", pd0.get("binary_version").textValue());
    assertFalse(pd0.has("leader_priority"));
    assertEquals(pd0, members.get("leader"));
    assertEquals(pd0, members.get("etcd_leader"));
  }

  @Test
  void clusterAnswersBeforeBootstrap() {
    twoMembers();
    cluster.setClusterId(7372843513410154713L);
    assertEquals("{\n  \"id\": 7372843513410154713,\n  \"max_peer_count\": 3\n}\n",
        get("/pd/api/v1/cluster").body());
  }

  @Test
  void clusterRoutesAnswerNotBootstrappedWithTheExactSuffix() {
    twoMembers();
    for (String path : List.of("/pd/api/v1/stores", "/pd/api/v1/store/1",
        "/pd/api/v1/schedulers")) {
      SimResponse response = get(path);
      assertEquals(500, response.status(), path);
      assertEquals(NOT_BOOTSTRAPPED, response.body(), path);
    }
  }

  @Test
  void withoutLeaderRedirectedRoutesAnswer503ButHealthAndConfigAreLocal() {
    twoMembers();
    cluster.addMember("basic-pd-2");
    cluster.setMemberHealthy("basic-pd-1", false);
    cluster.setMemberHealthy("basic-pd-2", false);
    SimResponse members = get("/pd/api/v1/members");
    assertEquals(503, members.status());
    assertEquals("[PD:apiutil:ErrRedirectNoLeader]redirect finds no leader\n", members.body());
    assertEquals(200, get("/pd/api/v1/health").status());
    assertEquals(200, get("/pd/api/v1/config").status());
  }

  @Test
  void noRunningMemberMeansUnreachable() {
    assertEquals(503, get("/pd/api/v1/health").status());
  }

  @Test
  void unknownPathsAndMethods() {
    twoMembers();
    SimResponse unknown = get("/pd/api/v1/nope");
    assertEquals(404, unknown.status());
    assertEquals("404 page not found\n", unknown.body());
    assertEquals(405, call("PUT", "/pd/api/v1/members", "").status());
    assertEquals(404, get("/other").status());
  }

  @Test
  void deleteMemberByNameAnswers200ThenPlain404() {
    twoMembers();
    SimResponse removed = call("DELETE", "/pd/api/v1/members/name/basic-pd-1", "");
    assertEquals(200, removed.status());
    assertEquals("\"removed, pd: basic-pd-1\"\n", removed.body());
    SimResponse again = call("DELETE", "/pd/api/v1/members/name/basic-pd-1", "");
    assertEquals(404, again.status());
    assertEquals("\"not found, pd: basic-pd-1\"\n", again.body());
  }

  @Test
  void deleteMemberByIdParsesUnsignedIdsAndHasNoExistenceCheck() {
    twoMembers();
    SimResponse removed = call("DELETE", "/pd/api/v1/members/id/13892733406154627210", "");
    assertEquals(200, removed.status());
    assertEquals("\"removed, pd: 13892733406154627210\"\n", removed.body());
    SimResponse bad = call("DELETE", "/pd/api/v1/members/id/abc", "");
    assertEquals(400, bad.status());
    assertEquals("\"strconv.ParseUint: parsing \\\"abc\\\": invalid syntax\"\n", bad.body());
    SimResponse unknown = call("DELETE", "/pd/api/v1/members/id/42", "");
    assertEquals(500, unknown.status());
    assertEquals("\"[PD:etcd:ErrEtcdMemberRemove]etcdserver: member not found: etcdserver: "
        + "member not found\"\n", unknown.body());
  }

  @Test
  void leaderTransfer() {
    twoMembers();
    SimResponse ok = call("POST", "/pd/api/v1/leader/transfer/basic-pd-1", "");
    assertEquals(200, ok.status());
    assertEquals("\"The transfer command is submitted.\"\n", ok.body());
    assertEquals("basic-pd-1", cluster.leader().orElseThrow().name());
    SimResponse unknown = call("POST", "/pd/api/v1/leader/transfer/nope", "");
    assertEquals(500, unknown.status());
    assertEquals("\"no valid pd to transfer etcd leader\"\n", unknown.body());
  }

  @Test
  void storesHaveThePdShapeAndTypes() throws Exception {
    bootstrappedWithStores(1);
    clock.advance(java.time.Duration.ofSeconds(30));
    JsonNode stores = json(get("/pd/api/v1/stores"));
    assertEquals(1, stores.get("count").intValue());
    JsonNode store = stores.at("/stores/0/store");
    assertEquals(1, store.get("id").intValue());
    assertEquals("basic-tikv-0.basic-tikv-peer.default.svc:20160", store.get("address").textValue());
    assertFalse(store.has("state"), "state is omitted when Up");
    assertFalse(store.has("labels"), "empty labels are omitted");
    assertEquals("8.5.7", store.get("version").textValue());
    assertEquals("basic-tikv-0.basic-tikv-peer.default.svc:20180",
        store.get("status_address").textValue());
    assertEquals(Instant.parse("2025-01-15T08:00:00Z").getEpochSecond(),
        store.get("start_timestamp").longValue());
    assertEquals(Instant.parse("2025-01-15T08:00:30Z").getEpochSecond() * 1_000_000_000L,
        store.get("last_heartbeat").longValue());
    assertEquals(1, store.get("node_state").intValue(), "a store read steps: Serving");
    assertEquals("Up", store.get("state_name").textValue());

    JsonNode status = stores.at("/stores/0/status");
    assertEquals("100GiB", status.get("capacity").textValue());
    assertTrue(status.get("available").isTextual());
    assertTrue(status.get("used_size").textValue().endsWith("GiB"));
    assertEquals(60, status.get("leader_count").intValue());
    assertEquals(60, status.get("region_count").intValue());
    assertTrue(status.get("leader_weight").isNumber());
    assertEquals("2025-01-15T08:00:00Z", status.get("start_ts").textValue());
    assertEquals("2025-01-15T08:00:30Z", status.get("last_heartbeat_ts").textValue());
    assertEquals("30s", status.get("uptime").textValue());
  }

  @Test
  void emptyStoreListIsAnArrayNeverNull() {
    bootstrappedWithStores(1);
    assertEquals("{\n  \"count\": 0,\n  \"stores\": []\n}\n",
        get("/pd/api/v1/stores?state=2").body());
  }

  @Test
  void storeStateQueryMustBeAnInteger() {
    bootstrappedWithStores(1);
    SimResponse name = get("/pd/api/v1/stores?state=Tombstone");
    assertEquals(500, name.status());
    assertEquals("\"strconv.Atoi: parsing \\\"Tombstone\\\": invalid syntax\"\n", name.body());
    SimResponse unknown = get("/pd/api/v1/stores?state=5");
    assertEquals(500, unknown.status());
    assertEquals("\"unknown SimulatedStoreState: 5\"\n", unknown.body());
  }

  @Test
  void storeGetErrors() throws Exception {
    bootstrappedWithStores(1);
    SimResponse missing = get("/pd/api/v1/store/99");
    assertEquals(404, missing.status());
    assertEquals("\"[PD:core:ErrStoreNotFound]store 99 not found\"\n", missing.body());
    SimResponse bad = get("/pd/api/v1/store/abc");
    assertEquals(400, bad.status());
    assertEquals("input", bad.headers().get("TiDB-Error-Code"));
    assertEquals("input", json(bad).get("code").textValue());
    assertEquals(1, json(get("/pd/api/v1/store/1")).at("/store/id").intValue());
  }

  @Test
  void deletedStoreIsOfflineThenTombstoneAfterPollsAndListedWithState2() throws Exception {
    bootstrappedWithStores(4);
    SimResponse deleted = call("DELETE", "/pd/api/v1/store/4", "");
    assertEquals(200, deleted.status());
    assertEquals("\"The store is set as Offline.\"\n", deleted.body());

    JsonNode first = json(get("/pd/api/v1/store/4")).get("store");
    assertEquals(1, first.get("state").intValue());
    assertEquals(2, first.get("node_state").intValue());
    assertEquals("Offline", first.get("state_name").textValue());
    assertEquals(4, json(get("/pd/api/v1/stores")).get("count").intValue());

    JsonNode stores = json(get("/pd/api/v1/stores"));
    assertEquals(3, stores.get("count").intValue(), "Tombstones are not listed by default");
    JsonNode tombstones = json(get("/pd/api/v1/stores?state=2"));
    assertEquals(1, tombstones.get("count").intValue());
    JsonNode tombstone = tombstones.at("/stores/0/store");
    assertEquals(2, tombstone.get("state").intValue());
    assertEquals(3, tombstone.get("node_state").intValue());
    assertEquals("Tombstone", tombstone.get("state_name").textValue());

    SimResponse gone = call("DELETE", "/pd/api/v1/store/4", "");
    assertEquals(410, gone.status());
    assertEquals(404, call("DELETE", "/pd/api/v1/store/99", "").status());
    assertEquals(4, json(get("/pd/api/v1/stores?state=0&state=2")).get("count").intValue());
  }

  @Test
  void forceIsDetectedByThePresenceOfTheKey() throws Exception {
    bootstrappedWithStores(3);
    SimResponse refused = call("DELETE", "/pd/api/v1/store/3", "");
    assertEquals(400, refused.status());
    assertEquals(200, call("DELETE", "/pd/api/v1/store/3?force=false", "").status());
    assertTrue(json(get("/pd/api/v1/store/3")).at("/store/physically_destroyed").booleanValue());
  }

  @Test
  void storeLabels() throws Exception {
    bootstrappedWithStores(1);
    SimResponse ok = call("POST", "/pd/api/v1/store/1/label",
        "{\"zone\":\"z1\",\"topology.kubernetes.io/zone\":\"z1\"}");
    assertEquals(200, ok.status());
    assertEquals("\"The store's label is updated.\"\n", ok.body());
    JsonNode labels = json(get("/pd/api/v1/store/1")).at("/store/labels");
    assertEquals(MAPPER.readTree("[{\"key\":\"zone\",\"value\":\"z1\"},"
        + "{\"key\":\"topology.kubernetes.io/zone\",\"value\":\"z1\"}]"), labels);

    SimResponse badKey = call("POST", "/pd/api/v1/store/1/label", "{\"zone$\":\"z1\"}");
    assertEquals(400, badKey.status());
    assertTrue(json(badKey).get("msg").textValue().startsWith("zone$ does not match format"));
    assertEquals(400, call("POST", "/pd/api/v1/store/1/label", "{\"zone\":1}").status());
    assertEquals(400, call("POST", "/pd/api/v1/store/1/label", "{nope").status());
    assertEquals(500, call("POST", "/pd/api/v1/store/99/label", "{\"a\":\"b\"}").status());
  }

  @Test
  void storeStateEndpoint() {
    bootstrappedWithStores(4);
    SimResponse offline = call("POST", "/pd/api/v1/store/4/state?state=Offline", "");
    assertEquals(200, offline.status());
    assertEquals("\"The store's state is updated.\"\n", offline.body());
    assertEquals(SimulatedStoreState.OFFLINE, cluster.store(4).orElseThrow().state());
    assertEquals(200, call("POST", "/pd/api/v1/store/4/state?state=up", "").status());
    assertEquals(SimulatedStoreState.UP, cluster.store(4).orElseThrow().state());
    SimResponse invalid = call("POST", "/pd/api/v1/store/4/state?state=Tombstone", "");
    assertEquals(400, invalid.status());
    assertEquals("\"invalid state Tombstone\"\n", invalid.body());
  }

  @Test
  void configUsesQuotedBooleansAndACommaJoinedLabelString() throws Exception {
    bootstrappedWithStores(1);
    cluster.setReplication(cluster.replication().withLocationLabels(List.of("zone", "host")));
    JsonNode config = json(get("/pd/api/v1/config"));
    JsonNode replication = config.get("replication");
    assertEquals(3, replication.get("max-replicas").intValue());
    assertEquals("zone,host", replication.get("location-labels").textValue());
    assertEquals("true", replication.get("enable-placement-rules").textValue());
    assertEquals("false", replication.get("strictly-match-label").textValue());
    assertEquals("30m0s", config.at("/schedule/max-store-down-time").textValue());
    assertEquals("false", config.at("/schedule/enable-one-way-merge").textValue());
    assertEquals(4, config.at("/schedule/leader-schedule-limit").intValue());
    assertEquals("basic-pd-0", config.get("name").textValue());
    assertEquals(replication, json(get("/pd/api/v1/config/replicate")));
  }

  @Test
  void replicationUpdateIsPartialAndTypeChecked() throws Exception {
    bootstrappedWithStores(1);
    SimResponse ok = call("POST", "/pd/api/v1/config/replicate",
        "{\"location-labels\":\"zone,rack\",\"enable-placement-rules\":\"true\"}");
    assertEquals(200, ok.status());
    assertEquals("\"The config is updated.\"\n", ok.body());
    assertEquals(List.of("zone", "rack"), cluster.replication().locationLabels());
    assertEquals(3, cluster.replication().maxReplicas());

    SimResponse rawBool =
        call("POST", "/pd/api/v1/config/replicate", "{\"enable-placement-rules\":true}");
    assertEquals(500, rawBool.status());
    assertEquals("internal", json(rawBool).get("code").textValue());
    SimResponse stringNumber =
        call("POST", "/pd/api/v1/config/replicate", "{\"max-replicas\":\"3\"}");
    assertEquals(400, stringNumber.status());
    assertEquals("input", json(stringNumber).get("code").textValue());
  }

  @Test
  void evictLeaderSchedulerLifecycle() throws Exception {
    bootstrappedWithStores(3);
    SimResponse created = call("POST", "/pd/api/v1/schedulers",
        "{\"name\":\"evict-leader-scheduler\",\"store_id\":5}");
    assertEquals(500, created.status(), "store 5 does not exist");

    created = call("POST", "/pd/api/v1/schedulers",
        "{\"name\":\"evict-leader-scheduler\",\"store_id\":1}");
    assertEquals("\"The scheduler is created.\"\n", created.body());
    SimResponse applied = call("POST", "/pd/api/v1/schedulers",
        "{\"name\":\"evict-leader-scheduler\",\"store_id\":3}");
    assertEquals(200, applied.status());
    assertEquals("\"The scheduler has been applied to the store.\"\n", applied.body());

    assertEquals(MAPPER.readTree("{\"store-id-ranges\": {\"1\": [{\"end-key\": \"\", "
            + "\"start-key\": \"\"}], \"3\": [{\"end-key\": \"\", \"start-key\": \"\"}]}, "
            + "\"batch\": 3}"),
        json(get("/pd/api/v1/scheduler-config/evict-leader-scheduler/list")));

    SimResponse removed = call("DELETE", "/pd/api/v1/schedulers/evict-leader-scheduler-1", "");
    assertEquals(200, removed.status());
    assertEquals("null\n", removed.body());
    SimResponse again = call("DELETE", "/pd/api/v1/schedulers/evict-leader-scheduler-1", "");
    assertEquals(404, again.status());
    assertEquals("null\n", again.body());
    assertEquals(400,
        call("DELETE", "/pd/api/v1/schedulers/evict-leader-scheduler-x", "").status());
    assertEquals(200, call("DELETE", "/pd/api/v1/schedulers/evict-leader-scheduler-3", "").status());

    SimResponse list = get("/pd/api/v1/scheduler-config/evict-leader-scheduler/list");
    assertEquals(404, list.status());
    assertEquals("text/plain; charset=utf-8", list.contentType());
    assertFalse(json(get("/pd/api/v1/schedulers")).toString().contains("evict-leader"));
  }

  @Test
  void schedulerListShowsEvictLeaderOnceWithoutSuffix() throws Exception {
    bootstrappedWithStores(3);
    cluster.addEvictLeader(1);
    cluster.addEvictLeader(2);
    List<String> names = MAPPER.convertValue(json(get("/pd/api/v1/schedulers")),
        MAPPER.getTypeFactory().constructCollectionType(List.class, String.class));
    assertEquals(List.of("balance-region-scheduler", "balance-leader-scheduler",
        "balance-hot-region-scheduler", "evict-slow-store-scheduler", "evict-leader-scheduler"),
        names);
  }

  @Test
  void schedulerCreationErrors() {
    bootstrappedWithStores(1);
    assertEquals("\"missing scheduler name\"\n",
        call("POST", "/pd/api/v1/schedulers", "{}").body());
    assertEquals("\"missing store id\"\n", call("POST", "/pd/api/v1/schedulers",
        "{\"name\":\"evict-leader-scheduler\",\"store_id\":\"1\"}").body());
    assertEquals(400, call("POST", "/pd/api/v1/schedulers", "{\"name\":\"nope\"}").status());
    SimResponse existed =
        call("POST", "/pd/api/v1/schedulers", "{\"name\":\"balance-leader-scheduler\"}");
    assertEquals(500, existed.status());
    assertEquals("\"[PD:scheduler:ErrSchedulerExisted]scheduler existed\"\n", existed.body());
    SimResponse whole = call("DELETE", "/pd/api/v1/schedulers/evict-leader-scheduler", "");
    assertEquals(404, whole.status());
    assertEquals("\"[PD:scheduler:ErrSchedulerNotFound]scheduler not found\"\n", whole.body());
  }

  @Test
  void readyPerMemberWithVerboseAndOldVersions() {
    twoMembers();
    SimResponse ready = api.handle(SimRequest.of("GET", "/pd/api/v2/ready", ""), "basic-pd-1");
    assertEquals(200, ready.status());
    assertEquals("", ready.body());

    cluster.setMemberRegionsLoaded("basic-pd-1", false);
    assertEquals(500,
        api.handle(SimRequest.of("GET", "/pd/api/v2/ready", ""), "basic-pd-1").status());
    SimResponse verbose =
        api.handle(SimRequest.of("GET", "/pd/api/v2/ready?verbose", ""), "basic-pd-1");
    assertEquals(500, verbose.status());
    assertEquals("{\n    \"region_loaded\": false\n}", verbose.body());
    assertEquals(200,
        api.handle(SimRequest.of("GET", "/pd/api/v2/ready", ""), "basic-pd-0").status());
    assertEquals(503,
        api.handle(SimRequest.of("GET", "/pd/api/v2/ready", ""), "basic-pd-9").status());

    cluster = new SimulatedPdCluster(KEY, SimulationSettings.defaults().withPdVersion("v8.5.1"),
        clock, new Random(1));
    api = new PdApi(cluster);
    cluster.addMember("basic-pd-0");
    SimResponse old = api.handle(SimRequest.of("GET", "/pd/api/v2/ready", ""), "basic-pd-0");
    assertEquals(404, old.status());
  }

  @Test
  void readySupportStartsAtPd852() {
    assertFalse(PdApi.supportsReady("v8.5.1"));
    assertTrue(PdApi.supportsReady("v8.5.2"));
    assertTrue(PdApi.supportsReady("v9.0.0-beta.1"));
    assertFalse(PdApi.supportsReady("v7.5.6"));
  }

  @Test
  void snapshotRecoveringMarker() throws Exception {
    twoMembers();
    assertEquals(MAPPER.readTree("{\"marked\": false}"),
        json(get("/pd/api/v1/admin/cluster/markers/snapshot-recovering")));
  }
}
