package io.tidb.operator.pdsim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The TiCDC servers of one cluster, as the operator talks to them on port 8301. Each running
 * TiCDC pod is one capture (a new pod UID is a new capture id); the first running capture that
 * is not draining becomes the owner when there is none. The cluster replicates {@value
 * #TABLES} tables, spread over the captures that are not draining.
 *
 * <ul>
 *   <li>{@code GET /status}: {@code {"id", "version", "is_owner", ...}}; the version is the tag
 *       of the pod's image;
 *   <li>{@code GET /api/v1/captures}: every running capture with {@code id}, {@code is_owner}
 *       and {@code address} ({@code <pod>.<tc>-ticdc-peer.<ns>.svc:8301});
 *   <li>{@code POST /api/v1/owner/resign}: the owner gives ownership to the next capture (202);
 *   <li>{@code PUT /api/v1/captures/drain {"capture_id"}}: the capture starts draining and the
 *       answer (202) carries its {@code current_table_count}; its tables move to the others at
 *       the next {@link #step()}; draining the owner is refused with 503 (TiCDC asks for a resign
 *       first), an unknown id with 400;
 *   <li>{@code GET /api/v1/health}: 200 while there is an owner, else 500.
 * </ul>
 *
 * A pod that is not running cannot be reached.
 */
public final class SimulatedTicdcServers {

  /** How many tables the simulated changefeeds replicate. */
  public static final int TABLES = 6;

  private static final ObjectMapper JSON = new ObjectMapper();

  private final ClusterKey cluster;
  private final Map<String, Capture> captures = new TreeMap<>();
  private int nextCapture = 1;
  private String owner;

  private static final class Capture {
    final String pod;
    final String uid;
    final String id;
    boolean running;
    boolean draining;
    String version;
    int tables;

    Capture(String pod, String uid, String id) {
      this.pod = pod;
      this.uid = uid;
      this.id = id;
    }
  }

  /** A capture as tests see it. */
  public record CaptureView(String pod, String id, boolean running, boolean owner, boolean draining,
      int tables) {}

  public SimulatedTicdcServers(ClusterKey cluster) {
    this.cluster = cluster;
  }

  /** The captures, by pod name. */
  public synchronized List<CaptureView> captures() {
    return captures.values().stream()
        .map(c -> new CaptureView(c.pod, c.id, c.running, c.pod.equals(owner), c.draining, c.tables))
        .toList();
  }

  /** The owner's pod, if any. */
  public synchronized Optional<String> owner() {
    return Optional.ofNullable(owner);
  }

  /** Makes the capture of {@code pod} the owner, as an election would (for tests). */
  public synchronized void setOwner(String pod) {
    Capture c = captures.get(pod);
    if (c == null || !c.running) {
      throw new IllegalArgumentException("no running TiCDC capture for pod " + pod);
    }
    owner = pod;
  }

  /** Running captures are exactly the running TiCDC pods; a new pod UID is a new capture. */
  public synchronized void syncPods(List<PodInstance> pods) {
    captures.keySet().retainAll(pods.stream().map(PodInstance::name).toList());
    for (PodInstance pod : pods) {
      Capture c = captures.get(pod.name());
      if (c == null || (pod.uid() != null && !pod.uid().equals(c.uid))) {
        c = new Capture(pod.name(), pod.uid(), "capture-" + nextCapture++);
        captures.put(pod.name(), c);
      }
      c.running = pod.running();
      c.version = pod.version();
    }
    electAndSpread();
  }

  /** Advances by one step: draining captures hand their tables to the others. */
  public synchronized void step() {
    boolean others = captures.values().stream().anyMatch(c -> c.running && !c.draining);
    if (others) {
      captures.values().stream().filter(c -> c.draining).forEach(c -> c.tables = 0);
    }
    electAndSpread();
  }

  private void electAndSpread() {
    Capture current = owner == null ? null : captures.get(owner);
    if (current == null || !current.running) {
      owner = captures.values().stream().filter(c -> c.running && !c.draining)
          .map(c -> c.pod).findFirst()
          .orElse(captures.values().stream().filter(c -> c.running).map(c -> c.pod).findFirst()
              .orElse(null));
    }
    List<Capture> receivers =
        captures.values().stream().filter(c -> c.running && !c.draining).toList();
    int held = captures.values().stream().filter(c -> c.running && c.draining)
        .mapToInt(c -> c.tables).sum();
    captures.values().stream().filter(c -> !c.running).forEach(c -> c.tables = 0);
    int spread = TABLES - held;
    for (int i = 0; i < receivers.size(); i++) {
      receivers.get(i).tables = spread / receivers.size() + (i < spread % receivers.size() ? 1 : 0);
    }
  }

  /**
   * Answers one request to the TiCDC server of {@code pod}.
   *
   * @param defaultVersion the {@code version} on {@code /status} of a pod whose image has no tag
   */
  public synchronized SimResponse answer(String pod, SimRequest request, String defaultVersion) {
    Capture self = captures.get(pod);
    if (self == null || !self.running) {
      return SimResponse.unreachable("TiCDC server " + pod + " of " + cluster);
    }
    String route = request.method() + " " + request.path();
    switch (route) {
      case "GET /status" -> {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("version", self.version != null ? self.version : defaultVersion);
        node.put("git_hash", "0000000");
        node.put("id", self.id);
        node.put("pid", 1);
        node.put("is_owner", pod.equals(owner));
        return json(200, node);
      }
      case "GET /api/v1/captures" -> {
        ArrayNode list = JsonNodeFactory.instance.arrayNode();
        for (Capture c : captures.values()) {
          if (c.running) {
            list.addObject()
                .put("id", c.id)
                .put("is_owner", c.pod.equals(owner))
                .put("address", c.pod + "." + cluster.name() + "-ticdc-peer." + cluster.namespace()
                    + ".svc:8301");
          }
        }
        return json(200, list);
      }
      case "POST /api/v1/owner/resign" -> {
        String from = owner;
        owner = captures.values().stream()
            .filter(c -> c.running && !c.draining && !c.pod.equals(from))
            .map(c -> c.pod).findFirst().orElse(from);
        return SimResponse.empty(202);
      }
      case "PUT /api/v1/captures/drain" -> {
        String id = captureId(request.body());
        Optional<Capture> target =
            captures.values().stream().filter(c -> c.running && c.id.equals(id)).findFirst();
        if (target.isEmpty()) {
          return SimResponse.text(400, "capture " + id + " not found\n");
        }
        if (target.get().pod.equals(owner)) {
          return SimResponse.text(503, "capture " + id + " is the owner; resign it first\n");
        }
        target.get().draining = true;
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("current_table_count", target.get().tables);
        return json(202, node);
      }
      case "GET /api/v1/health" -> {
        return owner == null ? SimResponse.text(500, "no owner\n") : SimResponse.empty(200);
      }
      default -> {
        return SimResponse.notFound();
      }
    }
  }

  private static String captureId(String body) {
    try {
      JsonNode node = JSON.readTree(body);
      return node == null ? "" : node.path("capture_id").asText("");
    } catch (IOException e) {
      return "";
    }
  }

  private static SimResponse json(int status, JsonNode node) {
    return new SimResponse(status, "application/json", node.toString(), Map.of());
  }
}
