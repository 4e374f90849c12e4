package io.tidb.operator.pdsim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The Pump servers of one cluster, as the operator sees them: each running pump registers itself
 * in its PD's etcd under {@value #PREFIX}{@code <nodeId>} (node id {@code <pod>:8250}, host {@code
 * <pod>.<tc>-pump:8250}, state {@code online}), again whenever its pod is new (a new UID); a pump
 * whose pod stops keeps its entry, as a crashed pump does.
 *
 * <ul>
 *   <li>{@code PUT /state/<nodeId>/close} on the pump itself: {@code {"code": 200}}; its state
 *       becomes {@code closing}, and {@code offline} at the next {@link #step()} (it has sent its
 *       binlog on); another pump's node id answers {@code {"code": 400}}.
 * </ul>
 *
 * A pod that is not running cannot be reached.
 */
public final class SimulatedPumpServers {

  /** Where pumps register, as tidb-binlog does. */
  public static final String PREFIX = "/tidb-binlog/v1/pumps/";

  static final int PORT = 8250;
  private static final ObjectMapper JSON = new ObjectMapper();

  private final ClusterKey cluster;
  private final Map<String, String> uids = new TreeMap<>();
  private final Map<String, Boolean> running = new TreeMap<>();
  private EtcdGateway etcd;
  private long ts = 400_000_000_000_000_000L;

  public SimulatedPumpServers(ClusterKey cluster) {
    this.cluster = cluster;
  }

  /** One registered pump as tests see it. */
  public record PumpView(String nodeId, String host, String state) {}

  /** The node id a pod's pump registers with. */
  public static String nodeId(String pod) {
    return pod + ":" + PORT;
  }

  /**
   * Running pumps are exactly the running Pump pods; a new pod (or a new UID) registers online in
   * {@code registry}, the etcd of the PD the cluster's pods join.
   */
  synchronized void syncPods(List<PodInstance> pods, EtcdGateway registry) {
    this.etcd = registry;
    running.clear();
    for (PodInstance pod : pods) {
      running.put(pod.name(), pod.running());
      String before = uids.get(pod.name());
      boolean fresh = before == null || (pod.uid() != null && !pod.uid().equals(before));
      if (pod.running() && fresh) {
        uids.put(pod.name(), pod.uid() == null ? "" : pod.uid());
        write(pod.name(), "online");
      }
    }
    uids.keySet().retainAll(pods.stream().map(PodInstance::name).toList());
  }

  /** Advances by one step: closing pumps are offline. */
  public synchronized void step() {
    for (PumpView p : registered()) {
      if ("closing".equals(p.state())) {
        write(p.nodeId().substring(0, p.nodeId().lastIndexOf(':')), "offline");
      }
    }
  }

  /** Every pump in the registry, in key order (other clusters' pumps on the same PD too). */
  public synchronized List<PumpView> registered() {
    if (etcd == null) {
      return List.of();
    }
    return etcd.withPrefix(PREFIX).values().stream().map(SimulatedPumpServers::view)
        .flatMap(Optional::stream).toList();
  }

  /** The registry entry of {@code pod}'s pump, if it registered. */
  public synchronized Optional<PumpView> of(String pod) {
    return registered().stream().filter(p -> p.nodeId().equals(nodeId(pod))).findFirst();
  }

  /**
   * Sets the registered state of {@code pod}'s pump, as {@code binlogctl} or the pump itself
   * would (e.g. {@code paused}), for tests.
   */
  public synchronized void setState(String pod, String state) {
    if (of(pod).isEmpty()) {
      throw new IllegalArgumentException("no registered pump for pod " + pod);
    }
    write(pod, state);
  }

  /** Answers one request to the Pump server of {@code pod}. */
  public synchronized SimResponse answer(String pod, SimRequest request) {
    if (!Boolean.TRUE.equals(running.get(pod))) {
      return SimResponse.unreachable("Pump server " + pod + " of " + cluster);
    }
    String path = request.path();
    if (request.method().equals("PUT") && path.startsWith("/state/") && path.endsWith("/close")) {
      String id = path.substring("/state/".length(), path.length() - "/close".length());
      if (!id.equals(nodeId(pod)) || of(pod).isEmpty()) {
        return status(400, "node " + id + " is not this pump (" + nodeId(pod) + ")");
      }
      if ("online".equals(of(pod).get().state())) {
        write(pod, "closing");
      }
      return status(200, "success");
    }
    return SimResponse.notFound();
  }

  private void write(String pod, String state) {
    ObjectNode n = JSON.createObjectNode();
    n.put("nodeId", nodeId(pod));
    n.put("host", pod + "." + cluster.name() + "-pump:" + PORT);
    n.put("state", state);
    n.put("isAlive", !"offline".equals(state));
    n.put("score", 0);
    n.putNull("label");
    n.put("maxCommitTS", ts);
    n.put("updateTS", ts++);
    etcd.put(PREFIX + nodeId(pod), n.toString());
  }

  private static Optional<PumpView> view(String json) {
    try {
      JsonNode n = JSON.readTree(json);
      return Optional.of(new PumpView(n.path("nodeId").asText(""), n.path("host").asText(""),
          n.path("state").asText("")));
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  private static SimResponse status(int code, String message) {
    ObjectNode n = JSON.createObjectNode();
    n.put("code", code);
    n.put("message", message);
    return new SimResponse(200, "application/json", n.toString(), Map.of());
  }
}
