package io.tidb.operator.pd;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The etcd key-value API that PD embeds, through etcd's JSON gateway on PD's client port ({@code
 * POST /v3/lease/grant}, {@code /v3/kv/put}, {@code /v3/kv/range}). Keys and values travel
 * base64-encoded and 64-bit integers as decimal strings, as the gateway does. The operator writes
 * the TiDB Dashboard topology keys ({@code /topology/prometheus}, {@code /topology/grafana}) here,
 * reads the binlog registry ({@link PumpClient#registry}) and a log backup's checkpoint, a value
 * that is bytes, not text ({@link #rangeBytes}).
 */
public final class PdEtcdClient {

  static final String LEASE_GRANT = "/v3/lease/grant";
  static final String KV_PUT = "/v3/kv/put";
  static final String KV_RANGE = "/v3/kv/range";
  static final String KV_DELETE_RANGE = "/v3/kv/deleterange";

  private final URI baseUrl;
  private final PdHttp http;

  /** @param baseUrl PD's client URL, as for {@link PdClient} */
  public PdEtcdClient(URI baseUrl, ComponentHttp httpClient, Duration requestTimeout) {
    this.baseUrl = baseUrl;
    this.http = new PdHttp(httpClient, requestTimeout);
  }

  public URI baseUrl() {
    return baseUrl;
  }

  /** Writes {@code key} with a lease of {@code ttl}, so the key disappears unless written again. */
  public void putWithTtl(String key, String value, Duration ttl) {
    Map<String, Object> grant = new LinkedHashMap<>();
    grant.put("TTL", String.valueOf(Math.max(1, ttl.toSeconds())));
    PdHttp.Response granted = ok(http.send(baseUrl, "POST", LEASE_GRANT, PdJson.write(grant)));
    JsonNode id = PdJson.parse(granted.body()).path("ID");
    if (id.isMissingNode() || id.asText().isEmpty()) {
      throw granted.undecodable("no lease ID in the answer");
    }
    Map<String, Object> put = new LinkedHashMap<>();
    put.put("key", encode(key));
    put.put("value", encode(value));
    put.put("lease", id.asText());
    ok(http.send(baseUrl, "POST", KV_PUT, PdJson.write(put)));
  }

  /** The value stored under {@code key}, if any. */
  public Optional<String> get(String key) {
    PdHttp.Response response =
        ok(http.send(baseUrl, "POST", KV_RANGE, PdJson.write(Map.of("key", encode(key)))));
    JsonNode kvs = PdJson.parse(response.body()).path("kvs");
    if (!kvs.isArray() || kvs.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(decode(kvs.get(0).path("value").asText("")));
  }

  /**
   * Every key starting with {@code prefix} and its value, in key order (etcd's range from {@code
   * prefix} to the prefix's successor, {@code range_end}).
   */
  public Map<String, String> range(String prefix) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("key", encode(prefix));
    body.put("range_end", encode(prefixEnd(prefix)));
    PdHttp.Response response = ok(http.send(baseUrl, "POST", KV_RANGE, PdJson.write(body)));
    JsonNode kvs = PdJson.parse(response.body()).path("kvs");
    Map<String, String> out = new java.util.TreeMap<>();
    if (kvs.isArray()) {
      for (JsonNode kv : kvs) {
        out.put(decode(kv.path("key").asText("")), decode(kv.path("value").asText("")));
      }
    }
    return out;
  }

  /**
   * Every key starting with {@code prefix} and the bytes of its value, in key order: for values
   * that are not text (BR's checkpoint, an 8-byte big-endian TSO), which {@link #range} would
   * mangle.
   */
  public Map<String, byte[]> rangeBytes(String prefix) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("key", encode(prefix));
    body.put("range_end", encode(prefixEnd(prefix)));
    PdHttp.Response response = ok(http.send(baseUrl, "POST", KV_RANGE, PdJson.write(body)));
    JsonNode kvs = PdJson.parse(response.body()).path("kvs");
    Map<String, byte[]> out = new java.util.TreeMap<>();
    if (kvs.isArray()) {
      for (JsonNode kv : kvs) {
        out.put(decode(kv.path("key").asText("")), Base64.getDecoder().decode(kv.path("value").asText("")));
      }
    }
    return out;
  }

  /** Writes {@code key} without a lease, its value the given bytes. */
  public void put(String key, byte[] value) {
    Map<String, Object> put = new LinkedHashMap<>();
    put.put("key", encode(key));
    put.put("value", Base64.getEncoder().encodeToString(value));
    ok(http.send(baseUrl, "POST", KV_PUT, PdJson.write(put)));
  }

  /** Deletes {@code key} (that key only); returns whether it was there. */
  public boolean delete(String key) {
    PdHttp.Response response =
        ok(http.send(baseUrl, "POST", KV_DELETE_RANGE, PdJson.write(Map.of("key", encode(key)))));
    return PdJson.parse(response.body()).path("deleted").asLong(0) > 0;
  }

  /** etcd's {@code GetPrefixRangeEnd}: the prefix with its last byte below 0xff incremented. */
  static String prefixEnd(String prefix) {
    byte[] bytes = prefix.getBytes(StandardCharsets.UTF_8);
    for (int i = bytes.length - 1; i >= 0; i--) {
      if ((bytes[i] & 0xff) < 0xff) {
        bytes[i]++;
        return new String(java.util.Arrays.copyOf(bytes, i + 1), StandardCharsets.UTF_8);
      }
    }
    return "\0";
  }

  private static PdHttp.Response ok(PdHttp.Response response) {
    if (response.status() != 200) {
      throw response.unexpected();
    }
    return response;
  }

  static String encode(String text) {
    return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }

  static String decode(String base64) {
    return new String(Base64.getDecoder().decode(base64), StandardCharsets.UTF_8);
  }
}
