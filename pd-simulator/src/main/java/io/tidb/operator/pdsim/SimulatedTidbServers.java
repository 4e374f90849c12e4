package io.tidb.operator.pdsim;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The TiDB servers of one cluster as their status port ({@code :10080/status}) answers: a
 * running server answers 200 unless it was marked unhealthy (then 500, as while shutting down);
 * a server that is not running cannot be reached.
 */
public final class SimulatedTidbServers {

  /** What {@code GET /status} on one TiDB server gives. */
  public enum Status { HEALTHY, UNHEALTHY, UNREACHABLE }

  private final Map<String, Server> servers = new TreeMap<>();

  private static final class Server {
    boolean running;
    boolean healthy = true;
  }

  /** Starts (or stops) a server. */
  public synchronized void setRunning(String podName, boolean running) {
    servers.computeIfAbsent(podName, n -> new Server()).running = running;
  }

  /** Makes a running server answer 500 (false) or 200 (true). */
  public synchronized void setHealthy(String podName, boolean healthy) {
    servers.computeIfAbsent(podName, n -> new Server()).healthy = healthy;
  }

  public synchronized Status status(String podName) {
    Server server = servers.get(podName);
    if (server == null || !server.running) {
      return Status.UNREACHABLE;
    }
    return server.healthy ? Status.HEALTHY : Status.UNHEALTHY;
  }

  /** Running servers are exactly the running TiDB pods; health marks of kept pods stay. */
  public synchronized void syncPods(List<PodInstance> pods) {
    servers.keySet().retainAll(pods.stream().map(PodInstance::name).toList());
    pods.forEach(pod -> setRunning(pod.name(), pod.running()));
  }
}
