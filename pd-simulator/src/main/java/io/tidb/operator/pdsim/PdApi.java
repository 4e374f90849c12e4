package io.tidb.operator.pdsim;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import io.tidb.operator.pdsim.SimulatedPdException.Rendering;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * PD's HTTP API over one {@link SimulatedPdCluster}: routes, status codes and bodies as
 * pd-api.md describes them. Requests either reach "the PD service" (any member; most routes are
 * then answered by the leader) or one named member.
 */
final class PdApi {

  private static final String V1 = "/pd/api/v1/";
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final Pattern LABEL_KEY =
      Pattern.compile("^[$]?[A-Za-z0-9]([-A-Za-z0-9_./]*[A-Za-z0-9])?$");
  private static final Pattern LABEL_VALUE = Pattern.compile("^[-A-Za-z0-9_./]*$");
  private static final String EVICT_LEADER_PREFIX =
      SimulatedPdCluster.EVICT_LEADER_SCHEDULER + "-";

  /** How a route is served: locally by any member, by the leader, or by the leader once TiKV
   *  has bootstrapped the cluster (rule R6). */
  private enum Scope { LOCAL, LEADER, BOOTSTRAPPED }

  private interface Handler {
    SimResponse handle(SimRequest request, List<String> params, SimulatedMember server);
  }

  private record Route(String method, String[] pattern, Scope scope, Handler handler) {
    Optional<List<String>> match(String[] segments) {
      if (segments.length != pattern.length) {
        return Optional.empty();
      }
      List<String> params = new ArrayList<>();
      for (int i = 0; i < pattern.length; i++) {
        if (pattern[i].equals("*")) {
          params.add(segments[i]);
        } else if (!pattern[i].equals(segments[i])) {
          return Optional.empty();
        }
      }
      return Optional.of(params);
    }
  }

  private final SimulatedPdCluster cluster;
  private final List<Route> routes = new ArrayList<>();

  PdApi(SimulatedPdCluster cluster) {
    this.cluster = cluster;
    route("GET", "health", Scope.LOCAL, (r, p, s) ->
        SimResponse.pdJson(200, PdJsonViews.health(cluster.members())));
    route("GET", "config", Scope.LOCAL, (r, p, s) -> SimResponse.pdJson(200,
        PdJsonViews.config(s, cluster.replication(), cluster.stores(),
            cluster.settings().storeVersion())));
    route("GET", "config/replicate", Scope.LEADER, (r, p, s) ->
        SimResponse.pdJson(200, PdJsonViews.replication(cluster.replication())));
    route("POST", "config/replicate", Scope.LEADER, (r, p, s) -> updateReplication(r));
    route("GET", "config/rules/group/*", Scope.LEADER, (r, p, s) -> rulesOfGroup(p.get(0)));
    route("GET", "cluster", Scope.LEADER, (r, p, s) -> SimResponse.pdJson(200,
        PdJsonViews.cluster(cluster.clusterId(), cluster.replication().maxReplicas())));
    route("GET", "leader", Scope.LEADER, (r, p, s) ->
        SimResponse.pdJson(200, PdJsonViews.leader(cluster.leader().orElseThrow())));
    route("GET", "members", Scope.LEADER, (r, p, s) -> SimResponse.pdJson(200,
        PdJsonViews.members(cluster.clusterId(), cluster.members(), cluster.leader(),
            cluster.settings().pdVersion())));
    route("DELETE", "members/name/*", Scope.LEADER, (r, p, s) -> deleteMemberByName(p.get(0)));
    route("DELETE", "members/id/*", Scope.LEADER, (r, p, s) -> deleteMemberById(p.get(0)));
    route("POST", "leader/transfer/*", Scope.LEADER, (r, p, s) -> {
      cluster.transferLeader(p.get(0));
      return SimResponse.pdMessage(200, "The transfer command is submitted.");
    });
    route("GET", "stores", Scope.BOOTSTRAPPED, (r, p, s) -> stores(r));
    route("GET", "store/*", Scope.BOOTSTRAPPED, (r, p, s) -> store(parseStoreId(p.get(0))));
    route("DELETE", "store/*", Scope.BOOTSTRAPPED, (r, p, s) -> {
      cluster.deleteStore(parseStoreId(p.get(0)), r.hasParam("force"));
      return SimResponse.pdMessage(200, "The store is set as Offline.");
    });
    route("POST", "store/*/label", Scope.BOOTSTRAPPED, (r, p, s) -> setLabels(r, p.get(0)));
    route("POST", "store/*/state", Scope.BOOTSTRAPPED, (r, p, s) -> {
      String state = r.param("state");
      cluster.setStoreState(parseStoreId(p.get(0)), state == null ? "" : state);
      return SimResponse.pdMessage(200, "The store's state is updated.");
    });
    route("GET", "schedulers", Scope.BOOTSTRAPPED, (r, p, s) ->
        SimResponse.pdJson(200, PdJsonViews.stringArray(cluster.schedulers())));
    route("POST", "schedulers", Scope.BOOTSTRAPPED, (r, p, s) -> createScheduler(r));
    route("DELETE", "schedulers/*", Scope.BOOTSTRAPPED, (r, p, s) -> deleteScheduler(p.get(0)));
    route("GET", "scheduler-config/evict-leader-scheduler/list", Scope.BOOTSTRAPPED,
        (r, p, s) -> {
          Set<Long> ids = cluster.evictLeaderStoreIds();
          return ids.isEmpty()
              ? SimResponse.notFound()
              : SimResponse.pdJson(200, PdJsonViews.evictLeaderConfig(ids));
        });
    route("GET", "admin/cluster/markers/snapshot-recovering", Scope.LEADER, (r, p, s) ->
        SimResponse.pdJson(200, JsonNodeFactory.instance.objectNode().put("marked", false)));
  }

  private void route(String method, String pattern, Scope scope, Handler handler) {
    routes.add(new Route(method, pattern.split("/"), scope, handler));
  }

  /**
   * Answers one request.
   *
   * @param viaMember the member the request was sent to, or null for the PD service
   */
  SimResponse handle(SimRequest request, String viaMember) {
    synchronized (cluster) {
      Optional<SimulatedMember> server = serverFor(viaMember);
      if (server.isEmpty()) {
        return SimResponse.unreachable(viaMember == null
            ? "PD of " + cluster.key() + " (no member is running)"
            : "PD member " + viaMember + " of " + cluster.key());
      }
      try {
        if (request.path().startsWith(EtcdGateway.PREFIX)) {
          return cluster.etcd().handle(request);
        }
        if (request.path().equals("/pd/api/v2/ready")) {
          return request.method().equals("GET") ? ready(request, server.get())
              : SimResponse.empty(405);
        }
        return dispatch(request, server.get());
      } catch (SimulatedPdException e) {
        return SimResponse.error(e);
      }
    }
  }

  private Optional<SimulatedMember> serverFor(String viaMember) {
    if (viaMember != null) {
      return cluster.member(viaMember).filter(SimulatedMember::healthy);
    }
    return cluster.leader().or(() ->
        cluster.members().stream().filter(SimulatedMember::healthy).findFirst());
  }

  private SimResponse dispatch(SimRequest request, SimulatedMember server) {
    if (!request.path().startsWith(V1)) {
      return SimResponse.notFound();
    }
    String[] segments = request.path().substring(V1.length()).split("/", -1);
    boolean pathKnown = false;
    for (Route route : routes) {
      Optional<List<String>> params = route.match(segments);
      if (params.isEmpty()) {
        continue;
      }
      pathKnown = true;
      if (!route.method().equals(request.method())) {
        continue;
      }
      if (route.scope() != Scope.LOCAL && cluster.leader().isEmpty()) {
        return SimResponse.text(503, "[PD:apiutil:ErrRedirectNoLeader]redirect finds no leader\n");
      }
      if (route.scope() == Scope.BOOTSTRAPPED) {
        cluster.requireBootstrapped();
      }
      return route.handler().handle(request, params.get(), server);
    }
    return pathKnown ? SimResponse.empty(405) : SimResponse.notFound();
  }

  // ---------------------------------------------------------------- handlers

  /**
   * {@code GET config/rules/group/<group>}: 412 while placement rules are off, as PD's rule
   * handlers; the rules of the group, {@code null} for a group without any (Go's nil slice). Only
   * group {@code tiflash} holds rules here: one learner rule per table with TiFlash replicas.
   */
  private SimResponse rulesOfGroup(String group) {
    if (!cluster.replication().enablePlacementRules()) {
      return SimResponse.pdMessage(412, "placement rules feature is disabled");
    }
    Map<Long, Integer> tables = "tiflash".equals(group) ? cluster.tiflashReplicas() : Map.of();
    if (tables.isEmpty()) {
      return new SimResponse(200, "application/json; charset=UTF-8", "null\n", Map.of());
    }
    var rules = JsonNodeFactory.instance.arrayNode();
    new java.util.TreeMap<>(tables).forEach((table, count) -> {
      var rule = rules.addObject();
      rule.put("group_id", "tiflash");
      rule.put("id", "table-" + table + "-r");
      rule.put("index", 120);
      rule.put("override", true);
      rule.put("start_key", String.format("7480000000000000ff%02x5f720000000000fa", table & 0xff));
      rule.put("end_key", String.format("7480000000000000ff%02x00000000000000f8", (table + 1) & 0xff));
      rule.put("role", "learner");
      rule.put("is_witness", false);
      rule.put("count", count);
      var constraint = rule.putArray("label_constraints").addObject();
      constraint.put("key", "engine");
      constraint.put("op", "in");
      constraint.putArray("values").add("tiflash");
    });
    return SimResponse.pdJson(200, rules);
  }

  private SimResponse ready(SimRequest request, SimulatedMember server) {
    if (!supportsReady(cluster.settings().pdVersion())) {
      return SimResponse.text(404, "404 page not found");
    }
    int status = server.regionsLoaded() ? 200 : 500;
    if (request.hasParam("verbose")) {
      String body = GoJson.indent(
          JsonNodeFactory.instance.objectNode().put("region_loaded", server.regionsLoaded()),
          "    ");
      return new SimResponse(status, "application/json; charset=utf-8", body, Map.of());
    }
    return SimResponse.empty(status);
  }

  /** {@code /pd/api/v2/ready} exists from PD v8.5.2 on. */
  static boolean supportsReady(String version) {
    int[] parts = Arrays.stream(version.replaceFirst("^v", "").split("[.-]"))
        .limit(3)
        .mapToInt(part -> part.matches("\\d+") ? Integer.parseInt(part) : 0)
        .toArray();
    int major = parts.length > 0 ? parts[0] : 0;
    int minor = parts.length > 1 ? parts[1] : 0;
    int patch = parts.length > 2 ? parts[2] : 0;
    return major > 8 || (major == 8 && (minor > 5 || (minor == 5 && patch >= 2)));
  }

  private SimResponse deleteMemberByName(String name) {
    return cluster.deleteMemberByName(name)
        ? SimResponse.pdMessage(200, "removed, pd: " + name)
        : SimResponse.pdMessage(404, "not found, pd: " + name);
  }

  private SimResponse deleteMemberById(String text) {
    long id;
    try {
      id = Long.parseUnsignedLong(text);
    } catch (NumberFormatException e) {
      return SimResponse.pdMessage(400, parseUintError(text));
    }
    if (!cluster.deleteMemberById(id)) {
      return SimResponse.pdMessage(500,
          "[PD:etcd:ErrEtcdMemberRemove]etcdserver: member not found: etcdserver: member not found");
    }
    return SimResponse.pdMessage(200, "removed, pd: " + Long.toUnsignedString(id));
  }

  private static String parseUintError(String text) {
    String reason = text.matches("\\d+") ? "value out of range" : "invalid syntax";
    return "strconv.ParseUint: parsing " + quoted(text) + ": " + reason;
  }

  private static String quoted(String text) {
    StringBuilder out = new StringBuilder();
    GoJson.quote(text, out);
    return out.toString();
  }

  private static long parseStoreId(String text) {
    try {
      return Long.parseUnsignedLong(text);
    } catch (NumberFormatException e) {
      throw new SimulatedPdException(400, parseUintError(text), Rendering.INPUT_ERROR);
    }
  }

  private SimResponse stores(SimRequest request) {
    Set<SimulatedStoreState> states = EnumSet.of(SimulatedStoreState.UP, SimulatedStoreState.OFFLINE);
    List<String> requested = request.query().getOrDefault("state", List.of());
    if (!requested.isEmpty()) {
      states = EnumSet.noneOf(SimulatedStoreState.class);
      for (String value : requested) {
        states.add(parseStoreState(value));
      }
    }
    if (cluster.settings().stepOnStoreRead()) {
      cluster.step();
    }
    Set<SimulatedStoreState> wanted = states;
    List<SimulatedStore> selected =
        cluster.stores().stream().filter(s -> wanted.contains(s.state())).toList();
    return SimResponse.pdJson(200,
        PdJsonViews.stores(selected, cluster.settings(), cluster.clock().instant()));
  }

  private static SimulatedStoreState parseStoreState(String value) {
    int code;
    try {
      code = Integer.parseInt(value);
    } catch (NumberFormatException e) {
      throw new SimulatedPdException(
          500, "strconv.Atoi: parsing " + quoted(value) + ": invalid syntax");
    }
    for (SimulatedStoreState state : SimulatedStoreState.values()) {
      if (state.code() == code) {
        return state;
      }
    }
    throw new SimulatedPdException(500, "unknown SimulatedStoreState: " + code);
  }

  private SimResponse store(long id) {
    if (cluster.settings().stepOnStoreRead()) {
      cluster.step();
    }
    SimulatedStore store = cluster.store(id)
        .orElseThrow(() -> SimulatedPdException.storeNotFound(id, 404));
    return SimResponse.pdJson(200,
        PdJsonViews.storeInfo(store, cluster.settings(), cluster.clock().instant()));
  }

  private SimResponse setLabels(SimRequest request, String idText) {
    long id = parseStoreId(idText);
    JsonNode body = parseObject(request.body(), "map[string]string");
    Map<String, String> labels = new LinkedHashMap<>();
    for (var fields = body.fields(); fields.hasNext(); ) {
      var field = fields.next();
      if (!field.getValue().isTextual()) {
        throw new SimulatedPdException(400, "json: cannot unmarshal "
            + goType(field.getValue()) + " into Go value of type string", Rendering.INPUT_ERROR);
      }
      labels.put(field.getKey(), field.getValue().textValue());
    }
    labels.forEach((key, value) -> {
      requireFormat(key, LABEL_KEY);
      requireFormat(value, LABEL_VALUE);
    });
    cluster.setStoreLabels(id, labels, request.hasParam("force"));
    return SimResponse.pdMessage(200, "The store's label is updated.");
  }

  private static void requireFormat(String text, Pattern format) {
    if (!format.matcher(text).matches()) {
      throw new SimulatedPdException(400,
          text + " does not match format " + quoted(format.pattern()), Rendering.INPUT_ERROR);
    }
  }

  private SimResponse updateReplication(SimRequest request) {
    JsonNode body = parseObject(request.body(), "config.SimulatedReplicationConfig");
    SimulatedReplicationConfig current = cluster.replication();
    SimulatedReplicationConfig next = new SimulatedReplicationConfig(
        body.has("max-replicas") ? intField(body, "max-replicas") : current.maxReplicas(),
        body.has("location-labels")
            ? splitLabels(stringField(body, "location-labels")) : current.locationLabels(),
        body.has("strictly-match-label")
            ? quotedBool(body, "strictly-match-label") : current.strictlyMatchLabel(),
        body.has("enable-placement-rules")
            ? quotedBool(body, "enable-placement-rules") : current.enablePlacementRules(),
        body.has("enable-placement-rules-cache")
            ? quotedBool(body, "enable-placement-rules-cache")
            : current.enablePlacementRulesCache(),
        body.has("isolation-level")
            ? stringField(body, "isolation-level") : current.isolationLevel());
    cluster.updateReplication(next);
    return SimResponse.pdMessage(200, "The config is updated.");
  }

  private static List<String> splitLabels(String text) {
    return text.isEmpty() ? List.of() : List.of(text.split(","));
  }

  private static int intField(JsonNode body, String field) {
    JsonNode value = body.get(field);
    if (!value.isIntegralNumber() || value.asLong() < 0 || value.asLong() > Integer.MAX_VALUE) {
      throw typeError(value, field, "uint64");
    }
    return value.intValue();
  }

  private static String stringField(JsonNode body, String field) {
    JsonNode value = body.get(field);
    if (!value.isTextual()) {
      throw typeError(value, field, "string");
    }
    return value.textValue();
  }

  /** A {@code ,string} boolean: only "true" or "false" as JSON strings are accepted. */
  private static boolean quotedBool(JsonNode body, String field) {
    JsonNode value = body.get(field);
    if (value.isTextual() && (value.textValue().equals("true")
        || value.textValue().equals("false"))) {
      return Boolean.parseBoolean(value.textValue());
    }
    if (value.isTextual() || value.isBoolean()) {
      throw new SimulatedPdException(500, "json: invalid use of ,string struct tag, trying to "
          + "unmarshal " + (value.isTextual() ? quoted(value.textValue()) : "unquoted value")
          + " into bool", Rendering.INTERNAL_ERROR);
    }
    throw typeError(value, field, "bool");
  }

  private static SimulatedPdException typeError(JsonNode value, String field, String goType) {
    return new SimulatedPdException(400, "json: cannot unmarshal " + goType(value)
        + " into Go struct field SimulatedReplicationConfig." + field + " of type " + goType,
        Rendering.INPUT_ERROR);
  }

  private SimResponse createScheduler(SimRequest request) {
    JsonNode body = parseObject(request.body(), "map[string]interface {}");
    JsonNode name = body.get("name");
    if (name == null || !name.isTextual() || name.textValue().isEmpty()) {
      return SimResponse.pdMessage(400, "missing scheduler name");
    }
    String scheduler = name.textValue();
    if (scheduler.equals(SimulatedPdCluster.EVICT_LEADER_SCHEDULER)) {
      JsonNode storeId = body.get("store_id");
      if (storeId == null || !storeId.isNumber()) {
        return SimResponse.pdMessage(400, "missing store id");
      }
      return cluster.addEvictLeader(storeId.longValue())
          ? SimResponse.pdMessage(200, "The scheduler is created.")
          : SimResponse.pdMessage(200, "The scheduler has been applied to the store.");
    }
    if (!SimulatedPdCluster.DEFAULT_SCHEDULERS.contains(scheduler)) {
      return SimResponse.pdMessage(400, "unknown scheduler");
    }
    if (!cluster.addScheduler(scheduler)) {
      return SimResponse.pdMessage(500, "[PD:scheduler:ErrSchedulerExisted]scheduler existed");
    }
    return SimResponse.pdMessage(200, "The scheduler is created.");
  }

  private SimResponse deleteScheduler(String name) {
    if (name.startsWith(EVICT_LEADER_PREFIX)) {
      String suffix = name.substring(name.lastIndexOf('-') + 1);
      long storeId;
      try {
        storeId = Long.parseUnsignedLong(suffix);
      } catch (NumberFormatException e) {
        return SimResponse.pdJson(400, NullNode.getInstance());
      }
      return SimResponse.pdJson(
          cluster.removeEvictLeader(storeId) ? 200 : 404, NullNode.getInstance());
    }
    return cluster.removeScheduler(name)
        ? SimResponse.pdMessage(200, "The scheduler is removed.")
        : SimResponse.pdMessage(404, "[PD:scheduler:ErrSchedulerNotFound]scheduler not found");
  }

  private static JsonNode parseObject(String body, String goType) {
    JsonNode node;
    try {
      node = MAPPER.readTree(body);
    } catch (JsonProcessingException e) {
      throw new SimulatedPdException(400,
          "invalid character in JSON body: " + e.getOriginalMessage(), Rendering.INPUT_ERROR);
    }
    if (node == null || node.isMissingNode()) {
      throw new SimulatedPdException(400, "unexpected end of JSON input", Rendering.INPUT_ERROR);
    }
    if (!node.isObject()) {
      throw new SimulatedPdException(400, "json: cannot unmarshal " + goType(node)
          + " into Go value of type " + goType, Rendering.INPUT_ERROR);
    }
    return node;
  }

  private static String goType(JsonNode node) {
    if (node.isTextual()) {
      return "string";
    }
    if (node.isNumber()) {
      return "number";
    }
    if (node.isBoolean()) {
      return "bool";
    }
    if (node.isArray()) {
      return "array";
    }
    return node.isObject() ? "object" : "null";
  }
}
