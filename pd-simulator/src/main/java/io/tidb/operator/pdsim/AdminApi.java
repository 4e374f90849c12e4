package io.tidb.operator.pdsim;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The simulator's own endpoints under {@code /sim}: fault rules, recorded calls, a state summary,
 * the state-transition journal and manual steps.
 *
 * <pre>
 * GET    /sim/calls[?cluster=ns/name]   recorded calls, oldest first
 * DELETE /sim/calls                     forget recorded calls
 * GET    /sim/faults                    active fault rules
 * POST   /sim/faults                    add a rule: {"cluster","component","instance","method",
 *                                       "path","status","delayMillis","times"} (all optional,
 *                                       status or delayMillis required) → 201 {"id":N}
 * DELETE /sim/faults[/{id}]             remove all rules or one
 * GET    /sim/clusters                  members, leader and stores of every cluster
 * GET    /sim/journal[?cluster=ns/name] state transitions, oldest first ({@link JournalEntry})
 * POST   /sim/step                      advance every cluster by one step
 * </pre>
 */
final class AdminApi {

  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
  private static final Set<String> FAULT_FIELDS = Set.of(
      "cluster", "component", "instance", "method", "path", "status", "delayMillis", "times");

  private final SimulatedClusters clusters;
  private final FaultInjector faults;
  private final CallRecorder recorder;

  AdminApi(SimulatedClusters clusters, FaultInjector faults, CallRecorder recorder) {
    this.clusters = clusters;
    this.faults = faults;
    this.recorder = recorder;
  }

  /** Answers a request whose path starts with {@code /sim/}. */
  SimResponse handle(SimRequest request) {
    String path = request.path();
    String method = request.method();
    try {
      if (path.equals("/sim/calls")) {
        return switch (method) {
          case "GET" -> json(200, calls(request.param("cluster")));
          case "DELETE" -> {
            recorder.clear();
            yield SimResponse.empty(204);
          }
          default -> SimResponse.empty(405);
        };
      }
      if (path.equals("/sim/faults")) {
        return switch (method) {
          case "GET" -> json(200, faultList());
          case "POST" -> json(201, JSON.objectNode().put("id", faults.add(parseFault(request.body()))));
          case "DELETE" -> {
            faults.clear();
            yield SimResponse.empty(204);
          }
          default -> SimResponse.empty(405);
        };
      }
      if (path.startsWith("/sim/faults/") && method.equals("DELETE")) {
        String id = path.substring("/sim/faults/".length());
        if (!id.matches("\\d{1,9}")) {
          return SimResponse.text(400, "id: invalid value \"" + id + "\": must be a rule id\n");
        }
        return SimResponse.empty(faults.remove(Integer.parseInt(id)) ? 204 : 404);
      }
      if (path.equals("/sim/clusters") && method.equals("GET")) {
        return json(200, clusterSummary());
      }
      if (path.equals("/sim/journal") && method.equals("GET")) {
        return json(200, journal(request.param("cluster")));
      }
      if (path.equals("/sim/step") && method.equals("POST")) {
        clusters.stepAll();
        return SimResponse.empty(204);
      }
      return SimResponse.notFound();
    } catch (IllegalArgumentException e) {
      return SimResponse.text(400, e.getMessage() + "\n");
    }
  }

  private static SimResponse json(int status, JsonNode node) {
    return new SimResponse(status, SimResponse.PD_JSON, GoJson.pdBody(node), Map.of());
  }

  private JsonNode calls(String cluster) {
    List<RecordedCall> calls =
        cluster == null ? recorder.calls() : recorder.calls(ClusterKey.parse(cluster));
    ArrayNode array = JSON.arrayNode();
    for (RecordedCall call : calls) {
      ObjectNode node = array.addObject();
      node.put("time", call.time().toString());
      node.put("cluster", call.cluster() == null ? null : call.cluster().toString());
      node.put("component", call.component());
      node.put("instance", call.instance());
      node.put("method", call.method());
      node.put("path", call.path());
      node.put("query", call.query());
      node.put("body", call.body());
      node.put("status", call.status());
    }
    return array;
  }

  /** One cluster's journal, or every cluster's merged by time (stable: by cluster, then seq). */
  private JsonNode journal(String cluster) {
    List<ClusterKey> keys = cluster == null
        ? clusters.keys()
        : clusters.existing(ClusterKey.parse(cluster))
            .map(pd -> List.of(pd.key()))
            .orElse(List.of());
    List<Map.Entry<ClusterKey, JournalEntry>> entries = new ArrayList<>();
    for (ClusterKey key : keys) {
      clusters.pd(key).journal().forEach(e -> entries.add(Map.entry(key, e)));
    }
    entries.sort(Comparator.comparing(e -> e.getValue().time()));
    ArrayNode array = JSON.arrayNode();
    for (Map.Entry<ClusterKey, JournalEntry> item : entries) {
      JournalEntry entry = item.getValue();
      ObjectNode node = array.addObject();
      node.put("seq", entry.seq());
      node.put("time", entry.time().toString());
      node.put("cluster", item.getKey().toString());
      node.put("event", entry.event().wireName());
      node.put("store", entry.storeId());
      node.put("pod", entry.pod());
      node.put("member", entry.member());
      node.put("leader", entry.leader());
      node.put("members", entry.members());
      node.put("healthyMembers", entry.healthyMembers());
      node.put("upTikvStores", entry.upTikvStores());
      node.put("offlineTikvStores", entry.offlineTikvStores());
      node.put("tombstoneTikvPods", entry.tombstoneTikvPods());
      node.put("stoppedTikvStores", entry.stoppedTikvStores());
      node.set("evictLeaderStores", MAPPER.valueToTree(entry.evictLeaderStores()));
      node.put("maxReplicas", entry.maxReplicas());
    }
    return array;
  }

  private JsonNode faultList() {
    ArrayNode array = JSON.arrayNode();
    for (FaultInjector.ActiveFault fault : faults.active()) {
      FaultRule rule = fault.rule();
      ObjectNode node = array.addObject();
      node.put("id", fault.id());
      node.put("cluster", rule.cluster() == null ? null : rule.cluster().toString());
      node.put("component", rule.component());
      node.put("instance", rule.instance());
      node.put("method", rule.method());
      node.put("path", rule.pathPrefix());
      node.put("status", rule.status());
      node.put("delayMillis", rule.delay().toMillis());
      node.put("times", rule.times());
      node.put("remaining", fault.remaining());
    }
    return array;
  }

  static FaultRule parseFault(String body) {
    JsonNode node;
    try {
      node = MAPPER.readTree(body);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("body: invalid JSON: " + e.getOriginalMessage());
    }
    if (node == null || !node.isObject()) {
      throw new IllegalArgumentException("body: must be a JSON object with the fields "
          + FAULT_FIELDS);
    }
    node.fieldNames().forEachRemaining(field -> {
      if (!FAULT_FIELDS.contains(field)) {
        throw new IllegalArgumentException(
            field + ": unknown field; allowed fields are " + FAULT_FIELDS);
      }
    });
    String component = text(node, "component");
    if (component != null
        && !List.of("pd", "tidb", "ticdc", "tiproxy", "pump", "tiflash").contains(component)) {
      throw new IllegalArgumentException("component: invalid value \"" + component
          + "\": must be \"pd\", \"tidb\", \"ticdc\", \"tiproxy\", \"pump\" or \"tiflash\"");
    }
    String cluster = text(node, "cluster");
    return new FaultRule(
        cluster == null ? null : ClusterKey.parse(cluster), component, text(node, "instance"),
        text(node, "method"), text(node, "path"), integer(node, "status"),
        Duration.ofMillis(integer(node, "delayMillis")), integer(node, "times"));
  }

  private static String text(JsonNode node, String field) {
    JsonNode value = node.get(field);
    if (value == null || value.isNull()) {
      return null;
    }
    if (!value.isTextual()) {
      throw new IllegalArgumentException(field + ": invalid value " + value + ": must be a string");
    }
    return value.textValue();
  }

  private static int integer(JsonNode node, String field) {
    JsonNode value = node.get(field);
    if (value == null || value.isNull()) {
      return 0;
    }
    if (!value.isIntegralNumber() || !value.canConvertToInt()) {
      throw new IllegalArgumentException(
          field + ": invalid value " + value + ": must be an integer");
    }
    return value.intValue();
  }

  private JsonNode clusterSummary() {
    ArrayNode array = JSON.arrayNode();
    for (ClusterKey key : clusters.keys()) {
      SimulatedPdCluster pd = clusters.pd(key);
      ObjectNode node = array.addObject();
      node.put("cluster", key.toString());
      node.set("clusterId", PdJsonViews.unsigned(pd.clusterId()));
      node.put("leader", pd.leader().map(SimulatedMember::name).orElse(null));
      node.put("bootstrapped", pd.isBootstrapped());
      ArrayNode members = node.putArray("members");
      for (SimulatedMember member : pd.members()) {
        members.addObject()
            .put("name", member.name())
            .put("healthy", member.healthy())
            .set("memberId", PdJsonViews.unsigned(member.memberId()));
      }
      ArrayNode stores = node.putArray("stores");
      for (SimulatedStore store : pd.stores()) {
        stores.addObject()
            .put("id", store.id())
            .put("pod", store.podName())
            .put("engine", store.engine().component())
            .put("state", store.stateName())
            .put("leaderCount", store.leaderCount())
            .put("regionCount", store.regionCount());
      }
      node.set("evictLeaderStores", MAPPER.valueToTree(pd.evictLeaderStoreIds()));
    }
    return array;
  }
}
