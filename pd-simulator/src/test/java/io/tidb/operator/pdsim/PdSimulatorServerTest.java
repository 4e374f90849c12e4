package io.tidb.operator.pdsim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class PdSimulatorServerTest {

  private static final ClusterKey KEY = new ClusterKey("ns1", "basic");
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private final HttpClient http = HttpClient.newHttpClient();
  private PdSimulatorServer server;

  @BeforeEach
  void start() throws Exception {
    server = PdSimulatorServer.start(new SimulatedClusters());
    SimulatedPdCluster pd = server.pd(KEY);
    pd.addMember("basic-pd-0");
    pd.addMember("basic-pd-1");
    pd.addStore("basic-tikv-0");
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private HttpResponse<String> send(String method, URI uri, String body) throws Exception {
    HttpRequest request = HttpRequest.newBuilder(uri)
        .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body))
        .timeout(Duration.ofSeconds(30))
        .build();
    return http.send(request, HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> pd(String method, String path) throws Exception {
    return send(method, URI.create(server.pdUrl(KEY) + path), null);
  }

  @Test
  void answersWithNagleOffAsGoServersDo() {
    assertEquals("true", System.getProperty(TcpNoDelay.PROPERTY),
        "the JDK server leaves Nagle on unless told: every kept-alive answer would wait ~40 ms");
  }

  @Test
  void listensOnLoopbackAndPrintsTemplates() {
    assertEquals("127.0.0.1", server.baseUrl().getHost());
    assertEquals(server.baseUrl() + "/clusters/{namespace}/{name}", server.pdUrlTemplate());
    assertEquals(server.baseUrl() + "/clusters/{namespace}/{name}/members/{member}",
        server.pdMemberUrlTemplate());
    assertEquals(server.baseUrl() + "/clusters/{namespace}/{name}/tidb/{pod}",
        server.tidbStatusUrlTemplate());
  }

  @Test
  void servesPdUnderTheClusterPrefixWithPdHeaders() throws Exception {
    HttpResponse<String> health = pd("GET", "/pd/api/v1/health");
    assertEquals(200, health.statusCode());
    assertEquals("application/json; charset=UTF-8",
        health.headers().firstValue("Content-Type").orElseThrow());
    assertEquals(2, MAPPER.readTree(health.body()).size());

    HttpResponse<String> bad = pd("GET", "/pd/api/v1/store/abc");
    assertEquals("input", bad.headers().firstValue("TiDB-Error-Code").orElseThrow());
  }

  @Test
  void clustersAreSeparate() throws Exception {
    HttpResponse<String> other =
        send("GET", URI.create(server.pdUrl(new ClusterKey("ns2", "basic")) + "/pd/api/v1/health"),
            null);
    assertEquals(503, other.statusCode());
    assertTrue(other.body().contains("not reachable"));
  }

  @Test
  void memberUrlsReachOneMember() throws Exception {
    server.pd(KEY).setMemberRegionsLoaded("basic-pd-1", false);
    assertEquals(200, send("GET",
        URI.create(server.pdMemberUrl(KEY, "basic-pd-0") + "/pd/api/v2/ready"), null).statusCode());
    assertEquals(500, send("GET",
        URI.create(server.pdMemberUrl(KEY, "basic-pd-1") + "/pd/api/v2/ready"), null).statusCode());
  }

  @Test
  void tidbStatusFollowsTheServerState() throws Exception {
    URI status = URI.create(server.tidbStatusUrl(KEY, "basic-tidb-0") + "/status");
    assertEquals(503, send("GET", status, null).statusCode());

    server.clusters().tidb(KEY).setRunning("basic-tidb-0", true);
    HttpResponse<String> healthy = send("GET", status, null);
    assertEquals(200, healthy.statusCode());
    assertEquals("{\"connections\":0,\"version\":\"8.0.11-TiDB-v8.5.7\",\"git_hash\":\""
        + PdJsonViews.TIDB_GIT_HASH + "\",\"status\":{\"init_stats_percentage\":100}}",
        healthy.body());

    server.clusters().tidb(KEY).setHealthy("basic-tidb-0", false);
    HttpResponse<String> shuttingDown = send("GET", status, null);
    assertEquals(500, shuttingDown.statusCode());
    assertEquals("", shuttingDown.body());
  }

  @Test
  void recordsEveryCallInOrderWithBodyAndStatus() throws Exception {
    pd("GET", "/pd/api/v1/members");
    send("POST", URI.create(server.pdUrl(KEY) + "/pd/api/v1/schedulers"),
        "{\"name\":\"evict-leader-scheduler\",\"store_id\":1}");
    pd("DELETE", "/pd/api/v1/store/1?force");
    send("GET", URI.create(server.baseUrl() + "/elsewhere"), null);

    List<RecordedCall> calls = server.calls();
    assertEquals(List.of("GET /pd/api/v1/members", "POST /pd/api/v1/schedulers",
        "DELETE /pd/api/v1/store/1?force", "GET /elsewhere"),
        calls.stream().map(RecordedCall::request).toList());
    assertEquals("{\"name\":\"evict-leader-scheduler\",\"store_id\":1}", calls.get(1).body());
    assertEquals(200, calls.get(1).status());
    assertEquals(KEY, calls.get(0).cluster());
    assertEquals("pd", calls.get(0).component());
    assertNull(calls.get(0).instance());
    assertNull(calls.get(3).cluster());
    assertEquals(404, calls.get(3).status());
    assertEquals(3, server.recorder().calls(KEY).size());

    JsonNode recorded = MAPPER.readTree(send("GET",
        URI.create(server.baseUrl() + "/sim/calls?cluster=ns1/basic"), null).body());
    assertEquals(3, recorded.size());
    assertEquals("DELETE", recorded.get(2).get("method").textValue());
    assertEquals("force", recorded.get(2).get("query").textValue());

    assertEquals(204, send("DELETE", URI.create(server.baseUrl() + "/sim/calls"), null)
        .statusCode());
    assertTrue(server.calls().isEmpty());
  }

  @Test
  void injectedFailureAppliesToMatchingRequestsTheGivenNumberOfTimes() throws Exception {
    server.faults().add(FaultRule.fail("/pd/api/v1/stores", 500).forMethod("GET").times(2));
    assertEquals(500, pd("GET", "/pd/api/v1/stores").statusCode());
    assertEquals(200, pd("GET", "/pd/api/v1/members").statusCode());
    HttpResponse<String> second = pd("GET", "/pd/api/v1/stores");
    assertEquals(500, second.statusCode());
    assertTrue(second.body().contains("ErrInjectedFault"));
    assertEquals(200, pd("GET", "/pd/api/v1/stores").statusCode());
    assertTrue(server.faults().active().isEmpty());
  }

  @Test
  void faultsCanTargetOneClusterOrOneMember() throws Exception {
    ClusterKey other = new ClusterKey("ns2", "other");
    server.faults().add(FaultRule.fail("/pd/", 502).forCluster(other));
    server.faults().add(FaultRule.fail("/pd/api/v2/ready", 500).forInstance("pd", "basic-pd-1"));
    assertEquals(200, pd("GET", "/pd/api/v1/health").statusCode());
    assertEquals(502, send("GET", URI.create(server.pdUrl(other) + "/pd/api/v1/health"), null)
        .statusCode());
    assertEquals(200, send("GET",
        URI.create(server.pdMemberUrl(KEY, "basic-pd-0") + "/pd/api/v2/ready"), null).statusCode());
    assertEquals(500, send("GET",
        URI.create(server.pdMemberUrl(KEY, "basic-pd-1") + "/pd/api/v2/ready"), null).statusCode());
  }

  @Test
  void slowRuleDelaysAnswersPastAClientTimeout() throws Exception {
    server.faults().add(FaultRule.slow("/pd/api/v1/health", Duration.ofSeconds(30)));
    HttpRequest request = HttpRequest.newBuilder(URI.create(server.pdUrl(KEY) + "/pd/api/v1/health"))
        .timeout(Duration.ofSeconds(1))
        .build();
    assertThrows(HttpTimeoutException.class,
        () -> http.send(request, HttpResponse.BodyHandlers.ofString()));
    assertEquals(200, pd("GET", "/pd/api/v1/members").statusCode());
  }

  @Test
  void faultsAreManagedOverHttp() throws Exception {
    URI faults = URI.create(server.baseUrl() + "/sim/faults");
    HttpResponse<String> added = send("POST", faults,
        "{\"cluster\":\"ns1/basic\",\"method\":\"DELETE\",\"path\":\"/pd/api/v1/members/\","
            + "\"status\":503,\"times\":1}");
    assertEquals(201, added.statusCode());
    int id = MAPPER.readTree(added.body()).get("id").intValue();

    JsonNode listed = MAPPER.readTree(send("GET", faults, null).body());
    assertEquals(1, listed.size());
    assertEquals(503, listed.get(0).get("status").intValue());
    assertEquals("ns1/basic", listed.get(0).get("cluster").textValue());

    assertEquals(503, pd("DELETE", "/pd/api/v1/members/name/basic-pd-1").statusCode());
    assertEquals(200, pd("DELETE", "/pd/api/v1/members/name/basic-pd-1").statusCode());
    assertEquals(404, send("DELETE", URI.create(faults + "/" + id), null).statusCode());

    HttpResponse<String> invalid = send("POST", faults, "{\"status\":\"500\"}");
    assertEquals(400, invalid.statusCode());
    assertEquals("status: invalid value \"500\": must be an integer\n", invalid.body());
    assertEquals(400, send("POST", faults, "{\"path\":\"/pd\"}").statusCode());
    assertEquals(400, send("POST", faults, "{\"statuss\":500}").statusCode());

    send("POST", faults, "{\"delayMillis\":10}");
    assertEquals(204, send("DELETE", faults, null).statusCode());
    assertTrue(server.faults().active().isEmpty());
  }

  @Test
  void adminSummaryAndManualStep() throws Exception {
    JsonNode summary = MAPPER.readTree(
        send("GET", URI.create(server.baseUrl() + "/sim/clusters"), null).body());
    assertEquals("ns1/basic", summary.get(0).get("cluster").textValue());
    assertEquals("basic-pd-0", summary.get(0).get("leader").textValue());
    assertEquals(1, summary.get(0).get("stores").size());

    assertEquals(NodeState.PREPARING, server.pd(KEY).store(1).orElseThrow().nodeState());
    assertEquals(204,
        send("POST", URI.create(server.baseUrl() + "/sim/step"), null).statusCode());
    assertEquals(NodeState.SERVING, server.pd(KEY).store(1).orElseThrow().nodeState());
  }

  @Test
  void journalListsTransitionsOfOneClusterWithCounts() throws Exception {
    SimulatedPdCluster pd = server.pd(KEY);
    pd.addStore("basic-tikv-1");
    pd.addStore("basic-tikv-2");
    pd.addStore("basic-tikv-3");
    assertEquals(200, pd("DELETE", "/pd/api/v1/store/4").statusCode());
    send("POST", URI.create(server.pdUrl(KEY) + "/pd/api/v1/schedulers"),
        "{\"name\":\"evict-leader-scheduler\",\"store_id\":1}");
    server.pd(new ClusterKey("ns2", "other")).addMember("other-pd-0");

    JsonNode journal = MAPPER.readTree(
        send("GET", URI.create(server.baseUrl() + "/sim/journal?cluster=ns1/basic"), null).body());
    List<String> events = new java.util.ArrayList<>();
    journal.forEach(e -> events.add(e.get("event").textValue()));
    assertEquals(List.of("member-added", "leader-changed", "member-added", "store-joined",
        "store-joined", "store-joined", "store-joined", "store-offline", "evict-leader-begin"),
        events);
    JsonNode offline = journal.get(7);
    assertEquals(8, offline.get("seq").intValue());
    assertEquals("ns1/basic", offline.get("cluster").textValue());
    assertEquals(4, offline.get("store").intValue());
    assertEquals("basic-tikv-3", offline.get("pod").textValue());
    assertTrue(offline.get("member").isNull());
    assertEquals("basic-pd-0", offline.get("leader").textValue());
    assertEquals(2, offline.get("members").intValue());
    assertEquals(2, offline.get("healthyMembers").intValue());
    assertEquals(3, offline.get("upTikvStores").intValue());
    assertEquals(1, offline.get("offlineTikvStores").intValue());
    assertEquals(0, offline.get("tombstoneTikvPods").intValue());
    assertEquals(0, offline.get("stoppedTikvStores").intValue());
    assertEquals(3, offline.get("maxReplicas").intValue());
    assertEquals(0, offline.get("evictLeaderStores").size());
    assertEquals("[1]", journal.get(8).get("evictLeaderStores").toString());
    java.time.Instant.parse(offline.get("time").textValue());

    JsonNode all = MAPPER.readTree(
        send("GET", URI.create(server.baseUrl() + "/sim/journal"), null).body());
    assertEquals(journal.size() + 2, all.size());
    HttpResponse<String> unknown =
        send("GET", URI.create(server.baseUrl() + "/sim/journal?cluster=ns3/none"), null);
    assertEquals(200, unknown.statusCode());
    assertEquals("[]", unknown.body().trim());
    assertTrue(server.clusters().existing(new ClusterKey("ns3", "none")).isEmpty());
    assertEquals(400, send("GET", URI.create(server.baseUrl() + "/sim/journal?cluster=bad"), null)
        .statusCode());
  }

  @Test
  void targetParsing() {
    assertEquals(new PdSimulatorServer.Target(KEY, "pd", null, "/pd/api/v1/health"),
        PdSimulatorServer.target("/clusters/ns1/basic/pd/api/v1/health").orElseThrow());
    assertEquals(new PdSimulatorServer.Target(KEY, "pd", "basic-pd-0", "/pd/api/v2/ready"),
        PdSimulatorServer.target("/clusters/ns1/basic/members/basic-pd-0/pd/api/v2/ready")
            .orElseThrow());
    assertEquals(new PdSimulatorServer.Target(KEY, "tidb", "basic-tidb-0", "/status"),
        PdSimulatorServer.target("/clusters/ns1/basic/tidb/basic-tidb-0/status").orElseThrow());
    assertTrue(PdSimulatorServer.target("/clusters/ns1/basic").isEmpty());
    assertTrue(PdSimulatorServer.target("/clusters/ns1/basic/tikv/x/metrics").isEmpty());
    assertTrue(PdSimulatorServer.target("/pd/api/v1/health").isEmpty());
  }
}
