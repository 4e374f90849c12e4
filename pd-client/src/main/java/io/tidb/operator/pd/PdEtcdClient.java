package io.tidb.operator.pd;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpClient;
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
 * the TiDB Dashboard topology keys ({@code /topology/prometheus}, {@code /topology/grafana}) here.
 */
public final class PdEtcdClient {

  static final String LEASE_GRANT = "/v3/lease/grant";
  static final String KV_PUT = "/v3/kv/put";
  static final String KV_RANGE = "/v3/kv/range";

  private final URI baseUrl;
  private final PdHttp http;

  /** @param baseUrl PD's client URL, as for {@link PdClient} */
  public PdEtcdClient(URI baseUrl, HttpClient httpClient, Duration requestTimeout) {
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
