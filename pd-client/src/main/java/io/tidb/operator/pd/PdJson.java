package io.tidb.operator.pd;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Decodes PD's JSON into the client's records with PD's exact types: unsigned 64-bit ids (also
 * above {@link Long#MAX_VALUE}), sizes as strings, {@code ,string} booleans, comma-joined label
 * lists. Every method throws {@link IllegalArgumentException} naming the field on a mismatch.
 */
final class PdJson {

  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final BigInteger UINT64_LIMIT = BigInteger.ONE.shiftLeft(64);

  private PdJson() {}

  static JsonNode parse(String body) {
    try {
      JsonNode node = MAPPER.readTree(body);
      if (node == null || node.isMissingNode()) {
        throw new IllegalArgumentException("empty body");
      }
      return node;
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("invalid JSON: " + e.getOriginalMessage(), e);
    }
  }

  static String write(Object value) {
    try {
      return MAPPER.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("cannot encode " + value, e);
    }
  }

  static List<PdHealth> health(String body) {
    JsonNode array = requireArray(parse(body), "health");
    List<PdHealth> result = new ArrayList<>();
    for (int i = 0; i < array.size(); i++) {
      JsonNode entry = array.get(i);
      String field = "[" + i + "]";
      result.add(new PdHealth(
          text(entry, "name", field), unsigned(entry.get("member_id"), field + ".member_id"),
          strings(entry.get("client_urls"), field + ".client_urls"),
          entry.path("health").asBoolean(false)));
    }
    return result;
  }

  static PdCluster cluster(String body) {
    JsonNode node = parse(body);
    return new PdCluster(unsigned(node.get("id"), "id"), node.path("max_peer_count").asInt(0));
  }

  static PdMemberInfo member(JsonNode node, String field) {
    return new PdMemberInfo(text(node, "name", field), unsigned(node.get("member_id"),
        field + ".member_id"), strings(node.get("peer_urls"), field + ".peer_urls"),
        strings(node.get("client_urls"), field + ".client_urls"),
        node.path("binary_version").asText(""));
  }

  static PdMemberInfo leader(String body) {
    return member(parse(body), "leader");
  }

  static PdMembers members(String body) {
    JsonNode node = parse(body);
    JsonNode clusterId = node.path("header").get("cluster_id");
    List<PdMemberInfo> members = new ArrayList<>();
    JsonNode list = node.get("members");
    if (list != null && !list.isNull()) {
      requireArray(list, "members");
      for (int i = 0; i < list.size(); i++) {
        members.add(member(list.get(i), "members[" + i + "]"));
      }
    }
    JsonNode leader = node.get("leader");
    return new PdMembers(
        clusterId == null ? 0 : unsigned(clusterId, "header.cluster_id"), members,
        leader == null || leader.isNull() ? null : member(leader, "leader"));
  }

  /** {@code {"count":N,"stores":[…]}}; entries with a null store or status are skipped. */
  static List<StoreInfo> stores(String body) {
    JsonNode node = parse(body);
    JsonNode list = node.get("stores");
    List<StoreInfo> result = new ArrayList<>();
    if (list == null || list.isNull()) {
      return result;
    }
    requireArray(list, "stores");
    for (int i = 0; i < list.size(); i++) {
      JsonNode entry = list.get(i);
      if (entry.path("store").isObject() && entry.path("status").isObject()) {
        result.add(storeInfo(entry, "stores[" + i + "]"));
      }
    }
    return result;
  }

  static StoreInfo store(String body) {
    return storeInfo(parse(body), "");
  }

  private static StoreInfo storeInfo(JsonNode entry, String field) {
    String prefix = field.isEmpty() ? "" : field + ".";
    JsonNode store = entry.path("store");
    JsonNode status = entry.path("status");
    Map<String, String> labels = new LinkedHashMap<>();
    JsonNode labelList = store.get("labels");
    if (labelList != null && !labelList.isNull()) {
      requireArray(labelList, prefix + "store.labels");
      labelList.forEach(l -> labels.put(l.path("key").asText(), l.path("value").asText()));
    }
    JsonNode heartbeat = store.get("last_heartbeat");
    Instant lastHeartbeat = null;
    if (heartbeat != null && heartbeat.isIntegralNumber() && heartbeat.longValue() > 0) {
      long nanos = heartbeat.longValue();
      lastHeartbeat = Instant.ofEpochSecond(nanos / 1_000_000_000L, nanos % 1_000_000_000L);
    }
    StoreState state;
    try {
      state = StoreState.fromStateName(text(store, "state_name", prefix + "store"));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(prefix + e.getMessage(), e);
    }
    return new StoreInfo(
        unsigned(store.get("id"), prefix + "store.id"),
        text(store, "address", prefix + "store"),
        labels, state,
        store.path("version").asText(""),
        store.path("status_address").asText(""),
        count(status, "leader_count", prefix + "status"),
        count(status, "region_count", prefix + "status"),
        sizeText(status, "capacity", prefix + "status"),
        sizeText(status, "available", prefix + "status"),
        lastHeartbeat);
  }

  static PdReplicationConfig replication(String body) {
    JsonNode replication = parse(body).path("replication");
    if (!replication.isObject()) {
      throw new IllegalArgumentException("replication: missing from the config");
    }
    JsonNode maxReplicas = replication.get("max-replicas");
    if (maxReplicas == null || !maxReplicas.isIntegralNumber()) {
      throw new IllegalArgumentException(
          "replication.max-replicas: invalid value " + maxReplicas + ": expected a number");
    }
    return new PdReplicationConfig(maxReplicas.intValue(),
        labelList(replication.get("location-labels"), "replication.location-labels"),
        quotedBoolean(replication.get("enable-placement-rules"),
            "replication.enable-placement-rules"));
  }

  /** {@code {"marked": <bool>}} of PD's cluster markers. */
  static boolean marked(String body) {
    JsonNode marked = parse(body).get("marked");
    if (marked == null || !marked.isBoolean()) {
      throw new IllegalArgumentException("marked: invalid value " + marked + ": expected a boolean");
    }
    return marked.booleanValue();
  }

  static List<String> stringList(String body, String field) {
    return strings(parse(body), field);
  }

  /** Keys of {@code store-id-ranges} in the evict-leader scheduler config. */
  static SortedSet<Long> evictLeaderStoreIds(String body) {
    JsonNode ranges = parse(body).path("store-id-ranges");
    SortedSet<Long> ids = new TreeSet<>();
    ranges.fieldNames().forEachRemaining(key -> ids.add(unsignedText(key, "store-id-ranges")));
    return ids;
  }

  // ---------------------------------------------------------------- field helpers

  static long unsigned(JsonNode node, String field) {
    if (node == null || node.isNull()) {
      throw new IllegalArgumentException(field + ": missing");
    }
    if (node.isTextual()) {
      return unsignedText(node.textValue(), field);
    }
    if (!node.isIntegralNumber()) {
      throw new IllegalArgumentException(
          field + ": invalid value " + node + ": expected an unsigned 64-bit integer");
    }
    BigInteger value = node.bigIntegerValue();
    if (value.signum() < 0 || value.compareTo(UINT64_LIMIT) >= 0) {
      throw new IllegalArgumentException(
          field + ": invalid value " + value + ": out of the unsigned 64-bit range");
    }
    return value.longValue();
  }

  static long unsignedText(String text, String field) {
    try {
      return Long.parseUnsignedLong(text);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          field + ": invalid value \"" + text + "\": expected an unsigned 64-bit integer", e);
    }
  }

  private static String text(JsonNode node, String name, String field) {
    JsonNode value = node.get(name);
    if (value == null || !value.isTextual()) {
      throw new IllegalArgumentException((field.isEmpty() ? "" : field + ".") + name
          + ": invalid value " + value + ": expected a string");
    }
    return value.textValue();
  }

  private static int count(JsonNode node, String name, String field) {
    JsonNode value = node.get(name);
    if (value == null || value.isNull()) {
      return 0;
    }
    if (!value.isIntegralNumber()) {
      throw new IllegalArgumentException(
          field + "." + name + ": invalid value " + value + ": expected an integer");
    }
    return value.intValue();
  }

  /** Sizes are go-units strings such as "95.12GiB"; a number here is a type mismatch. */
  private static String sizeText(JsonNode node, String name, String field) {
    JsonNode value = node.get(name);
    if (value == null || value.isNull()) {
      return "";
    }
    if (!value.isTextual()) {
      throw new IllegalArgumentException(field + "." + name + ": invalid value " + value
          + ": expected a size string such as \"100GiB\"");
    }
    return value.textValue();
  }

  private static List<String> strings(JsonNode node, String field) {
    if (node == null || node.isNull()) {
      return List.of();
    }
    requireArray(node, field);
    List<String> values = new ArrayList<>();
    for (JsonNode item : node) {
      if (!item.isTextual()) {
        throw new IllegalArgumentException(
            field + ": invalid element " + item + ": expected strings");
      }
      values.add(item.textValue());
    }
    return values;
  }

  /** {@code typeutil.StringSlice}: one comma-joined string. */
  private static List<String> labelList(JsonNode node, String field) {
    if (node == null || node.isNull()) {
      return List.of();
    }
    if (!node.isTextual()) {
      throw new IllegalArgumentException(
          field + ": invalid value " + node + ": expected a comma-separated string");
    }
    return Arrays.stream(node.textValue().split(","))
        .map(String::strip)
        .filter(s -> !s.isEmpty())
        .toList();
  }

  /** A {@code ,string} boolean: "true"/"false" (a plain JSON boolean is accepted too). */
  private static boolean quotedBoolean(JsonNode node, String field) {
    if (node == null || node.isNull()) {
      return false;
    }
    if (node.isBoolean()) {
      return node.booleanValue();
    }
    if (node.isTextual() && (node.textValue().equals("true") || node.textValue().equals("false"))) {
      return Boolean.parseBoolean(node.textValue());
    }
    throw new IllegalArgumentException(
        field + ": invalid value " + node + ": expected \"true\" or \"false\"");
  }

  private static JsonNode requireArray(JsonNode node, String field) {
    if (!node.isArray()) {
      throw new IllegalArgumentException(
          field + ": invalid value " + abbreviate(node) + ": expected an array");
    }
    return node;
  }

  private static String abbreviate(JsonNode node) {
    String text = node.toString();
    return text.length() > 80 ? text.substring(0, 80) + "…" : text;
  }

  /** The highest {@code count} of the placement rules that put replicas on TiFlash stores. */
  static int tiflashReplicasNeeded(String body) {
    JsonNode rules = parse(body);
    if (rules.isNull()) {
      return 0; // a group without rules: PD answers null
    }
    if (!rules.isArray()) {
      throw new IllegalArgumentException("placement rules: expected a JSON array");
    }
    int needed = 0;
    for (JsonNode rule : rules) {
      boolean onTiflash = false;
      for (JsonNode c : rule.path("label_constraints")) {
        if ("engine".equals(c.path("key").asText()) && "in".equals(c.path("op").asText())) {
          for (JsonNode v : c.path("values")) {
            onTiflash |= "tiflash".equals(v.asText());
          }
        }
      }
      if (onTiflash) {
        needed = Math.max(needed, rule.path("count").asInt(0));
      }
    }
    return needed;
  }
}
