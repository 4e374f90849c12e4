package io.tidb.operator.pdsim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/** Builds PD's JSON documents, field by field in PD's order and with PD's types (pd-api.md). */
final class PdJsonViews {

  static final String PD_GIT_HASH = "6dce4a68a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6";
  static final String STORE_GIT_HASH = "0f1e2d3c4b5a69788796a5b4c3d2e1f0a9b8c7d6";
  static final String TIDB_GIT_HASH = "9a8b7c6d5e4f30211203f4e5d6c7b8a9f0e1d2c3";
  /** Approximate size of one region in MiB (the default region-split-size is 96 MiB). */
  static final int REGION_SIZE_MIB = 75;

  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
  private static final ObjectNode CONFIG_TEMPLATE = loadConfigTemplate();

  private PdJsonViews() {}

  /** An unsigned 64-bit number as a JSON integer. */
  static JsonNode unsigned(long value) {
    return JSON.numberNode(new BigInteger(Long.toUnsignedString(value)));
  }

  static JsonNode text(String value) {
    return JSON.textNode(value);
  }

  static JsonNode stringArray(Collection<String> values) {
    ArrayNode array = JSON.arrayNode();
    values.forEach(array::add);
    return array;
  }

  /** {@code GET /pd/api/v1/health}. */
  static JsonNode health(List<SimulatedMember> members) {
    ArrayNode array = JSON.arrayNode();
    for (SimulatedMember member : members) {
      ObjectNode entry = array.addObject();
      entry.put("name", member.name());
      entry.set("member_id", unsigned(member.memberId()));
      entry.set("client_urls", stringArray(List.of(member.clientUrl())));
      entry.put("health", member.healthy());
    }
    return array;
  }

  /** The four fields PD keeps in the etcd leader key ({@code GET /pd/api/v1/leader}). */
  static JsonNode leader(SimulatedMember member) {
    ObjectNode node = JSON.objectNode();
    node.put("name", member.name());
    node.set("member_id", unsigned(member.memberId()));
    node.set("peer_urls", stringArray(List.of(member.peerUrl())));
    node.set("client_urls", stringArray(List.of(member.clientUrl())));
    return node;
  }

  /** A {@code pdpb.Member} as in {@code GET /pd/api/v1/members}. */
  static JsonNode member(SimulatedMember member, String binaryVersion) {
    ObjectNode node = (ObjectNode) leader(member);
    node.put("deploy_path", "/");
    node.put("binary_version", binaryVersion);
    node.put("git_hash", PD_GIT_HASH);
    return node;
  }

  /** {@code GET /pd/api/v1/members}: fields of GetMembersResponse, empty ones omitted. */
  static JsonNode members(
      long clusterId, List<SimulatedMember> members, Optional<SimulatedMember> leader,
      String binaryVersion) {
    ObjectNode node = JSON.objectNode();
    node.putObject("header").set("cluster_id", unsigned(clusterId));
    ArrayNode list = JSON.arrayNode();
    members.forEach(m -> list.add(member(m, binaryVersion)));
    if (!list.isEmpty()) {
      node.set("members", list);
    }
    leader.ifPresent(l -> {
      node.set("leader", member(l, binaryVersion));
      node.set("etcd_leader", member(l, binaryVersion));
    });
    return node;
  }

  /** {@code GET /pd/api/v1/cluster}: {@code metapb.Cluster}. */
  static JsonNode cluster(long clusterId, int maxPeerCount) {
    ObjectNode node = JSON.objectNode();
    node.set("id", unsigned(clusterId));
    node.put("max_peer_count", maxPeerCount);
    return node;
  }

  /** {@code GET /pd/api/v1/stores}: {@code {"count":N,"stores":[…]}}, never null stores. */
  static JsonNode stores(List<SimulatedStore> stores, SimulationSettings settings, Instant now) {
    ObjectNode node = JSON.objectNode();
    node.put("count", stores.size());
    ArrayNode list = node.putArray("stores");
    stores.forEach(s -> list.add(storeInfo(s, settings, now)));
    return node;
  }

  /** One {@code StoreInfo}: the flattened {@code metapb.Store} plus state_name, and status. */
  static JsonNode storeInfo(SimulatedStore store, SimulationSettings settings, Instant now) {
    ObjectNode info = JSON.objectNode();
    ObjectNode meta = info.putObject("store");
    meta.put("id", store.id());
    meta.put("address", store.address());
    if (store.state().code() != 0) {
      meta.put("state", store.state().code());
    }
    if (!store.labels().isEmpty()) {
      ArrayNode labels = meta.putArray("labels");
      store.labels().forEach((k, v) -> labels.addObject().put("key", k).put("value", v));
    }
    meta.put("version", settings.storeVersion());
    meta.put("peer_address", store.peerAddress());
    meta.put("status_address", store.statusAddress());
    meta.put("git_hash", STORE_GIT_HASH);
    meta.put("start_timestamp", store.startTime().getEpochSecond());
    meta.put("deploy_path", "/");
    meta.put("last_heartbeat",
        store.lastHeartbeat().getEpochSecond() * 1_000_000_000L + store.lastHeartbeat().getNano());
    if (store.physicallyDestroyed()) {
      meta.put("physically_destroyed", true);
    }
    if (store.nodeState().code() != 0) {
      meta.put("node_state", store.nodeState().code());
    }
    meta.put("state_name", store.stateName());

    ObjectNode status = info.putObject("status");
    long regionSize = (long) store.regionCount() * REGION_SIZE_MIB;
    long leaderSize = (long) store.leaderCount() * REGION_SIZE_MIB;
    double used = regionSize * 1024.0 * 1024.0;
    status.put("capacity", GoFormats.bytesSize(settings.storeCapacityBytes()));
    status.put("available", GoFormats.bytesSize(Math.max(0, settings.storeCapacityBytes() - used)));
    status.put("used_size", GoFormats.bytesSize(used));
    status.put("leader_count", store.leaderCount());
    status.put("leader_weight", 1);
    status.put("leader_score", store.leaderCount());
    status.put("leader_size", leaderSize);
    status.put("region_count", store.regionCount());
    status.put("region_weight", 1);
    status.put("region_score", regionSize * 1.0005);
    status.put("region_size", regionSize);
    if (store.heartbeating()) {
      status.put("slow_score", 1);
    }
    status.put("start_ts", GoFormats.rfc3339(store.startTime()));
    status.put("last_heartbeat_ts", GoFormats.rfc3339Nano(store.lastHeartbeat()));
    Duration uptime = Duration.between(store.startTime(), store.lastHeartbeat());
    if (uptime.compareTo(Duration.ZERO) > 0) {
      status.put("uptime", GoFormats.duration(uptime));
    }
    return info;
  }

  /** The {@code replication} section: booleans as strings, location labels comma-joined. */
  static JsonNode replication(SimulatedReplicationConfig config) {
    ObjectNode node = JSON.objectNode();
    node.put("max-replicas", config.maxReplicas());
    node.put("location-labels", String.join(",", config.locationLabels()));
    node.put("strictly-match-label", Boolean.toString(config.strictlyMatchLabel()));
    node.put("enable-placement-rules", Boolean.toString(config.enablePlacementRules()));
    node.put("enable-placement-rules-cache", Boolean.toString(config.enablePlacementRulesCache()));
    node.put("isolation-level", config.isolationLevel());
    return node;
  }

  /** {@code GET /pd/api/v1/config} as answered by one member. */
  static JsonNode config(
      SimulatedMember servedBy, SimulatedReplicationConfig replication, List<SimulatedStore> stores,
      String clusterVersion) {
    ObjectNode node = CONFIG_TEMPLATE.deepCopy();
    node.put("advertise-client-urls", servedBy.clientUrl());
    node.put("advertise-peer-urls", servedBy.peerUrl());
    node.put("name", servedBy.name());
    ((ObjectNode) node.get("metric")).put("job", servedBy.name());
    ObjectNode storeLimit = (ObjectNode) node.get("schedule").get("store-limit");
    for (SimulatedStore store : stores) {
      if (store.state() != SimulatedStoreState.TOMBSTONE) {
        storeLimit.putObject(Long.toString(store.id())).put("add-peer", 15).put("remove-peer", 15);
      }
    }
    node.set("replication", replication(replication));
    node.put("cluster-version", clusterVersion);
    return node;
  }

  /** {@code GET /pd/api/v1/scheduler-config/evict-leader-scheduler/list}. */
  static JsonNode evictLeaderConfig(Collection<Long> storeIds) {
    ObjectNode node = JSON.objectNode();
    ObjectNode ranges = node.putObject("store-id-ranges");
    for (long id : storeIds) {
      ranges.putArray(Long.toString(id)).addObject().put("end-key", "").put("start-key", "");
    }
    node.put("batch", 3);
    return node;
  }

  /** TiDB's {@code GET :10080/status}. */
  static JsonNode tidbStatus(String version) {
    ObjectNode node = JSON.objectNode();
    node.put("connections", 0);
    node.put("version", version);
    node.put("git_hash", TIDB_GIT_HASH);
    node.putObject("status").put("init_stats_percentage", 100);
    return node;
  }

  private static ObjectNode loadConfigTemplate() {
    try (InputStream in = PdJsonViews.class.getResourceAsStream("pd-config.json")) {
      if (in == null) {
        throw new IllegalStateException("resource pd-config.json is missing from the classpath");
      }
      return (ObjectNode) new ObjectMapper().readTree(in);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read pd-config.json", e);
    }
  }
}
