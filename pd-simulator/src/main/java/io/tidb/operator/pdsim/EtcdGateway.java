package io.tidb.operator.pdsim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The part of etcd's JSON gateway that PD serves on its client port and the operator uses: {@code
 * POST /v3/lease/grant}, {@code /v3/kv/put}, and {@code /v3/kv/range} and {@code
 * /v3/kv/deleterange} for one key or, with {@code range_end}, every key from {@code key} up to (not
 * including) {@code range_end} ({@code "\0"}: to the end), as a prefix read does. Keys and values are base64 in JSON and kept as the bytes
 * they encode (a value need not be text: BR's log-backup checkpoint is an 8-byte big-endian TSO),
 * keys read as UTF-8 (every key PD's users write is text); 64-bit integers are decimal strings,
 * and every answer carries etcd's {@code header}; a key whose lease has expired is gone, as in
 * etcd.
 */
final class EtcdGateway {

  static final String PREFIX = "/v3/";
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private record Entry(byte[] value, long lease, long createRevision, long modRevision, long version) {}

  private final long clusterId;
  private final Clock clock;
  private final Map<String, Entry> kv = new TreeMap<>();
  private final Map<Long, Instant> leaseExpiry = new HashMap<>();
  private long revision = 1;
  private long nextLease = 7_587_861_231_285_799_000L;

  EtcdGateway(long clusterId, Clock clock) {
    this.clusterId = clusterId;
    this.clock = clock;
  }

  /** The value under {@code key} now, read as UTF-8 text, for tests and the admin API. */
  synchronized Optional<String> value(String key) {
    return bytes(key).map(b -> new String(b, StandardCharsets.UTF_8));
  }

  /** The bytes stored under {@code key} now. */
  synchronized Optional<byte[]> bytes(String key) {
    expire();
    return Optional.ofNullable(kv.get(key)).map(e -> e.value().clone());
  }

  /** Every key starting with {@code prefix} and its value, in key order. */
  synchronized Map<String, String> withPrefix(String prefix) {
    expire();
    Map<String, String> out = new TreeMap<>();
    kv.forEach((k, e) -> {
      if (k.startsWith(prefix)) {
        out.put(k, new String(e.value(), StandardCharsets.UTF_8));
      }
    });
    return out;
  }

  /** Writes {@code key} without a lease, as a server of the cluster (e.g. a pump) does. */
  synchronized void put(String key, String value) {
    put(key, value.getBytes(StandardCharsets.UTF_8));
  }

  /** Writes {@code key} without a lease: bytes, as a server of the cluster (BR's advancer) does. */
  synchronized void put(String key, byte[] value) {
    revision++;
    Entry old = kv.get(key);
    kv.put(key, new Entry(value.clone(), 0, old == null ? revision : old.createRevision(), revision,
        old == null ? 1 : old.version() + 1));
  }

  synchronized SimResponse handle(SimRequest request) {
    if (!request.method().equals("POST")) {
      return SimResponse.text(405, "Method Not Allowed\n");
    }
    JsonNode body;
    try {
      body = request.body() == null || request.body().isBlank()
          ? JsonNodeFactory.instance.objectNode() : MAPPER.readTree(request.body());
    } catch (IOException e) {
      return grpcError(400, 3, "invalid character in request body");
    }
    expire();
    return switch (request.path()) {
      case "/v3/lease/grant" -> grant(body);
      case "/v3/kv/put" -> put(body);
      case "/v3/kv/range" -> range(body);
      case "/v3/kv/deleterange" -> deleteRange(body);
      default -> SimResponse.text(404, "Not Found\n");
    };
  }

  private SimResponse grant(JsonNode body) {
    long ttl = body.path("TTL").asLong(0);
    if (ttl <= 0) {
      return grpcError(400, 3, "etcdserver: lease TTL must be positive");
    }
    long id = nextLease++;
    leaseExpiry.put(id, clock.instant().plusSeconds(ttl));
    ObjectNode out = header();
    out.put("ID", String.valueOf(id));
    out.put("TTL", String.valueOf(ttl));
    return json(out);
  }

  private SimResponse put(JsonNode body) {
    Optional<String> key = decode(body.path("key")).map(EtcdGateway::text);
    if (key.isEmpty() || key.get().isEmpty()) {
      return grpcError(400, 3, "etcdserver: key is not provided");
    }
    long lease = body.path("lease").asLong(0);
    if (lease != 0 && !leaseExpiry.containsKey(lease)) {
      return grpcError(404, 5, "etcdserver: requested lease not found");
    }
    byte[] value = decode(body.path("value")).orElse(new byte[0]);
    revision++;
    Entry old = kv.get(key.get());
    kv.put(key.get(), new Entry(value, lease, old == null ? revision : old.createRevision(),
        revision, old == null ? 1 : old.version() + 1));
    return json(header());
  }

  /** The entries {@code key} and {@code range_end} of a range or delete-range request name. */
  private Map<String, Entry> selected(String key, JsonNode body) {
    Optional<String> end = decode(body.path("range_end")).map(EtcdGateway::text);
    Map<String, Entry> found = new TreeMap<>();
    if (end.isEmpty() || end.get().isEmpty()) {
      Entry e = kv.get(key);
      if (e != null) {
        found.put(key, e);
      }
    } else {
      boolean toEnd = end.get().equals("\0");
      kv.forEach((k, e) -> {
        if (k.compareTo(key) >= 0 && (toEnd || k.compareTo(end.get()) < 0)) {
          found.put(k, e);
        }
      });
    }
    return found;
  }

  /** Deletes the keys named as a range names them; {@code deleted} says how many there were. */
  private SimResponse deleteRange(JsonNode body) {
    Optional<String> key = decode(body.path("key")).map(EtcdGateway::text);
    if (key.isEmpty() || key.get().isEmpty()) {
      return grpcError(400, 3, "etcdserver: key is not provided");
    }
    Map<String, Entry> found = selected(key.get(), body);
    if (!found.isEmpty()) {
      revision++;
      found.keySet().forEach(kv::remove);
    }
    ObjectNode out = header();
    out.put("deleted", String.valueOf(found.size()));
    return json(out);
  }

  private SimResponse range(JsonNode body) {
    Optional<String> key = decode(body.path("key")).map(EtcdGateway::text);
    if (key.isEmpty()) {
      return grpcError(400, 3, "etcdserver: key is not provided");
    }
    ObjectNode out = header();
    Map<String, Entry> found = selected(key.get(), body);
    if (!found.isEmpty()) {
      var kvs = out.putArray("kvs");
      found.forEach((k, e) -> {
        ObjectNode item = kvs.addObject();
        item.put("key", encode(k.getBytes(StandardCharsets.UTF_8)));
        item.put("create_revision", String.valueOf(e.createRevision()));
        item.put("mod_revision", String.valueOf(e.modRevision()));
        item.put("version", String.valueOf(e.version()));
        item.put("value", encode(e.value()));
        if (e.lease() != 0) {
          item.put("lease", String.valueOf(e.lease()));
        }
      });
      out.put("count", String.valueOf(found.size()));
    }
    return json(out);
  }

  private void expire() {
    Instant now = clock.instant();
    leaseExpiry.entrySet().removeIf(l -> !l.getValue().isAfter(now));
    kv.entrySet().removeIf(e -> e.getValue().lease() != 0 && !leaseExpiry.containsKey(e.getValue().lease()));
  }

  private ObjectNode header() {
    ObjectNode out = JsonNodeFactory.instance.objectNode();
    ObjectNode header = out.putObject("header");
    header.put("cluster_id", Long.toUnsignedString(clusterId));
    header.put("member_id", "1");
    header.put("revision", String.valueOf(revision));
    header.put("raft_term", "2");
    return out;
  }

  /** grpc-gateway's error body. */
  private static SimResponse grpcError(int status, int code, String message) {
    ObjectNode out = JsonNodeFactory.instance.objectNode();
    out.put("error", message);
    out.put("code", code);
    out.put("message", message);
    return new SimResponse(status, "application/json", out.toString(), Map.of());
  }

  private static SimResponse json(ObjectNode node) {
    return new SimResponse(200, "application/json", node.toString(), Map.of());
  }

  private static Optional<byte[]> decode(JsonNode field) {
    if (!field.isTextual()) {
      return Optional.empty();
    }
    try {
      return Optional.of(Base64.getDecoder().decode(field.asText()));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  private static String text(byte[] bytes) {
    return new String(bytes, StandardCharsets.UTF_8);
  }

  private static String encode(byte[] bytes) {
    return Base64.getEncoder().encodeToString(bytes);
  }
}
