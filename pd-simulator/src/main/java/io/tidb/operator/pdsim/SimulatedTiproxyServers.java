package io.tidb.operator.pdsim;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The TiProxy servers of one cluster, as the operator talks to them on port 3080. Each running
 * TiProxy pod is a server; a test may mark one unhealthy.
 *
 * <ul>
 *   <li>{@code GET /api/debug/health}: 200 with {@code {"config_checksum": <n>}} while healthy,
 *       500 when marked unhealthy;
 *   <li>{@code PUT /api/admin/config/} with a TOML document: 200, the document kept as the
 *       server's last config change.
 * </ul>
 *
 * A pod that is not running cannot be reached.
 */
public final class SimulatedTiproxyServers {

  private final ClusterKey cluster;
  private final Set<String> running = new TreeSet<>();
  private final Set<String> unhealthy = new TreeSet<>();
  private final Map<String, String> configSet = new TreeMap<>();

  public SimulatedTiproxyServers(ClusterKey cluster) {
    this.cluster = cluster;
  }

  /** Running servers are exactly the running TiProxy pods. */
  public synchronized void syncPods(List<PodInstance> pods) {
    running.clear();
    pods.stream().filter(PodInstance::running).map(PodInstance::name).forEach(running::add);
  }

  /** The running servers, by pod name. */
  public synchronized Set<String> running() {
    return Set.copyOf(running);
  }

  /** Makes the server of {@code pod} answer its health check with 500 (or 200 again). */
  public synchronized void setHealthy(String pod, boolean healthy) {
    if (healthy) {
      unhealthy.remove(pod);
    } else {
      unhealthy.add(pod);
    }
  }

  /** The last config document each server was sent, by pod. */
  public synchronized Map<String, String> configSet() {
    return Map.copyOf(configSet);
  }

  /** Answers one request to the TiProxy server of {@code pod}. */
  public synchronized SimResponse answer(String pod, SimRequest request) {
    if (!running.contains(pod)) {
      return SimResponse.unreachable("TiProxy server " + pod + " of " + cluster);
    }
    String route = request.method() + " " + request.path();
    switch (route) {
      case "GET /api/debug/health" -> {
        if (unhealthy.contains(pod)) {
          return new SimResponse(500, "application/json",
              "{\"error\":\"the server is shutting down or unhealthy\"}", Map.of());
        }
        return new SimResponse(200, "application/json", "{\"config_checksum\":1}", Map.of());
      }
      case "PUT /api/admin/config/", "PUT /api/admin/config" -> {
        configSet.put(pod, request.body() == null ? "" : request.body());
        return SimResponse.empty(200);
      }
      default -> {
        return SimResponse.notFound();
      }
    }
  }
}
