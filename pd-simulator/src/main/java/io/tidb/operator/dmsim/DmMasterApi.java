package io.tidb.operator.dmsim;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tidb.operator.pdsim.SimRequest;
import io.tidb.operator.pdsim.SimResponse;
import java.util.Map;

/**
 * dm-master's HTTP API (its grpc-gateway) over one {@link SimulatedDmCluster}, with the paths and
 * JSON shapes of DM v2+: every field is emitted (also defaults), member IDs are strings, and a
 * refusal is HTTP 200 with {@code "result": false}.
 *
 * <pre>
 * GET    /apis/v1alpha1/members?master=true   {"result","msg","members":[{"master":{"msg","masters":[...]}}]}
 * GET    /apis/v1alpha1/members?worker=true   {"result","msg","members":[{"worker":{"msg","workers":[...]}}]}
 * GET    /apis/v1alpha1/members?leader=true   {"result","msg","members":[{"leader":{"msg","name","addr"}}]}
 * DELETE /apis/v1alpha1/members/master/NAME   {"result","msg"}
 * DELETE /apis/v1alpha1/members/worker/NAME   {"result","msg"}
 * PUT    /apis/v1alpha1/leader/1              {"result","msg"}   evict: the receiving member resigns
 * </pre>
 */
public final class DmMasterApi {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final String MEMBERS = "/apis/v1alpha1/members";

  private final SimulatedDmCluster cluster;

  public DmMasterApi(SimulatedDmCluster cluster) {
    this.cluster = cluster;
  }

  /**
   * Answers one request.
   *
   * @param member the member it was sent to, or null for the Service (which reaches the leader)
   */
  public SimResponse handle(SimRequest request, String member) {
    if (member != null && !cluster.alive(member)) {
      return new SimResponse(503, "text/plain; charset=utf-8",
          "dm-simulator: dm-master " + member + " is not reachable\n", Map.of());
    }
    try {
      String path = request.path();
      String method = request.method();
      if (method.equals("GET") && path.equals(MEMBERS)) {
        return list(request);
      }
      if (method.equals("DELETE") && path.startsWith(MEMBERS + "/master/")) {
        cluster.deleteMaster(path.substring((MEMBERS + "/master/").length()));
        return ok(result());
      }
      if (method.equals("DELETE") && path.startsWith(MEMBERS + "/worker/")) {
        cluster.deleteWorker(path.substring((MEMBERS + "/worker/").length()));
        return ok(result());
      }
      if (method.equals("PUT") && path.equals("/apis/v1alpha1/leader/1")) {
        String target = member != null ? member : cluster.leader().orElse(null);
        if (target == null) {
          throw new SimulatedDmCluster.RefusedException("fail to get leader: no dm-master leader elected");
        }
        cluster.evictLeader(target);
        return ok(result());
      }
      return new SimResponse(404, "text/plain; charset=utf-8", "Not Found\n", Map.of());
    } catch (SimulatedDmCluster.RefusedException e) {
      ObjectNode refused = NODES.objectNode();
      refused.put("result", false);
      refused.put("msg", e.getMessage());
      return ok(refused);
    }
  }

  private SimResponse list(SimRequest request) {
    if (!cluster.hasLeader()) {
      throw new SimulatedDmCluster.RefusedException("fail to get leader: no dm-master leader elected");
    }
    ObjectNode body = result();
    ArrayNode members = body.putArray("members");
    if (request.hasParam("leader")) {
      ObjectNode leader = members.addObject().putObject("leader");
      leader.put("msg", "");
      leader.put("name", cluster.leader().orElse(""));
      leader.put("addr", cluster.leaderAddr());
    }
    if (request.hasParam("master")) {
      ObjectNode section = members.addObject().putObject("master");
      section.put("msg", "");
      ArrayNode masters = section.putArray("masters");
      for (SimulatedDmCluster.Master m : cluster.masters()) {
        ObjectNode node = masters.addObject();
        node.put("name", m.name());
        node.put("memberID", m.memberId());
        node.put("alive", m.alive());
        node.putArray("peerURLs").add(m.peerUrl());
        node.putArray("clientURLs").add(m.clientUrl());
      }
    }
    if (request.hasParam("worker")) {
      ObjectNode section = members.addObject().putObject("worker");
      section.put("msg", "");
      ArrayNode workers = section.putArray("workers");
      for (SimulatedDmCluster.Worker w : cluster.workers()) {
        ObjectNode node = workers.addObject();
        node.put("name", w.name());
        node.put("addr", w.addr());
        node.put("stage", w.stage());
        node.put("source", w.source());
      }
    }
    return ok(body);
  }

  private static ObjectNode result() {
    ObjectNode node = NODES.objectNode();
    node.put("result", true);
    node.put("msg", "");
    return node;
  }

  private static SimResponse ok(ObjectNode body) {
    try {
      return new SimResponse(200, "application/json", JSON.writeValueAsString(body), Map.of());
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
