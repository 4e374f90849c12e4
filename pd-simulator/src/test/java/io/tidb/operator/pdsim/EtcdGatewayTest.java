package io.tidb.operator.pdsim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** etcd's JSON gateway on PD's client port: leases, put, range, expiry and etcd's errors. */
class EtcdGatewayTest {

  private static final ObjectMapper MAPPER = new ObjectMapper();
  private final MutableClock clock = new MutableClock(Instant.parse("2025-01-15T08:00:00Z"));
  private final SimulatedPdCluster cluster = new SimulatedPdCluster(
      new ClusterKey("default", "basic"), SimulationSettings.defaults(), clock, new Random(1));
  private final PdApi api = new PdApi(cluster);

  private SimResponse post(String path, String body) {
    return api.handle(SimRequest.of("POST", path, body), null);
  }

  private static String b64(String text) {
    return Base64.getEncoder().encodeToString(text.getBytes());
  }

  @Test
  void putWithLeaseIsReadBackUntilTheLeaseExpires() throws Exception {
    cluster.addMember("basic-pd-0", 1L);
    SimResponse grant = post("/v3/lease/grant", "{\"TTL\":\"600\"}");
    assertEquals(200, grant.status());
    JsonNode granted = MAPPER.readTree(grant.body());
    assertEquals("600", granted.get("TTL").asText());
    assertTrue(granted.get("header").get("cluster_id").isTextual(), "int64 as a string");
    String lease = granted.get("ID").asText();

    assertEquals(200, post("/v3/kv/put", "{\"key\":\"" + b64("/topology/prometheus")
        + "\",\"value\":\"" + b64("{\"ip\":\"m-prometheus.ns.svc\",\"port\":9090}")
        + "\",\"lease\":\"" + lease + "\"}").status());
    JsonNode range = MAPPER.readTree(post("/v3/kv/range",
        "{\"key\":\"" + b64("/topology/prometheus") + "\"}").body());
    assertEquals("1", range.get("count").asText());
    assertEquals(b64("{\"ip\":\"m-prometheus.ns.svc\",\"port\":9090}"),
        range.get("kvs").get(0).get("value").asText());
    assertEquals(lease, range.get("kvs").get(0).get("lease").asText());

    clock.advance(Duration.ofSeconds(601));
    JsonNode expired = MAPPER.readTree(post("/v3/kv/range",
        "{\"key\":\"" + b64("/topology/prometheus") + "\"}").body());
    assertTrue(expired.path("kvs").isMissingNode(), "gone with its lease: " + expired);
  }

  @Test
  void aValueThatIsNotTextKeepsEveryByte() throws Exception {
    cluster.addMember("basic-pd-0", 1L);
    // BR's log-backup checkpoint: an 8-byte big-endian TSO, here with bytes no UTF-8 text has.
    byte[] tso = java.nio.ByteBuffer.allocate(8).putLong(0x0123_45ff_fe80_c0ffL).array();
    String key = "/tidb/br-stream/checkpoint/pitr/central_global";
    assertEquals(200, post("/v3/kv/put", "{\"key\":\"" + b64(key) + "\",\"value\":\""
        + Base64.getEncoder().encodeToString(tso) + "\"}").status());
    JsonNode range = MAPPER.readTree(post("/v3/kv/range", "{\"key\":\"" + b64("/tidb/br-stream/checkpoint/pitr/")
        + "\",\"range_end\":\"" + b64("/tidb/br-stream/checkpoint/pitr0") + "\"}").body());
    assertEquals(b64(key), range.get("kvs").get(0).get("key").asText());
    org.junit.jupiter.api.Assertions.assertArrayEquals(tso,
        Base64.getDecoder().decode(range.get("kvs").get(0).get("value").asText()));
    org.junit.jupiter.api.Assertions.assertArrayEquals(tso, cluster.etcd().bytes(key).orElseThrow());

    byte[] later = java.nio.ByteBuffer.allocate(8).putLong(0x0123_45ff_fe80_c100L).array();
    cluster.etcd().put(key, later);
    JsonNode again = MAPPER.readTree(post("/v3/kv/range", "{\"key\":\"" + b64(key) + "\"}").body());
    org.junit.jupiter.api.Assertions.assertArrayEquals(later,
        Base64.getDecoder().decode(again.get("kvs").get(0).get("value").asText()));
    assertEquals("2", again.get("kvs").get(0).get("version").asText());
  }

  @Test
  void unknownLeaseAndMissingKeyAreEtcdErrors() throws Exception {
    cluster.addMember("basic-pd-0", 1L);
    SimResponse unknownLease = post("/v3/kv/put",
        "{\"key\":\"" + b64("k") + "\",\"value\":\"" + b64("v") + "\",\"lease\":\"42\"}");
    assertEquals(404, unknownLease.status());
    assertEquals("etcdserver: requested lease not found",
        MAPPER.readTree(unknownLease.body()).get("message").asText());
    assertEquals(400, post("/v3/kv/put", "{\"value\":\"" + b64("v") + "\"}").status());
    assertEquals(400, post("/v3/lease/grant", "{\"TTL\":0}").status());
    assertEquals(405, api.handle(SimRequest.of("GET", "/v3/kv/range", ""), null).status());
  }

  @Test
  void noRunningMemberIsUnreachable() {
    assertEquals(503, post("/v3/kv/range", "{\"key\":\"" + b64("k") + "\"}").status());
  }
}
