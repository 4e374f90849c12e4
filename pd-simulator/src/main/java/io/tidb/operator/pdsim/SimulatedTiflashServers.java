package io.tidb.operator.pdsim;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The TiFlash proxy status servers of one cluster, as the operator talks to them on port 20292.
 * Each running TiFlash pod is a server.
 *
 * <ul>
 *   <li>{@code GET /tiflash/store-status}: 200 with the store's status as plain text, {@code
 *       Running} unless a test {@link #setStoreStatus set another} ({@code Idle}, {@code Ready},
 *       {@code Stopping}, {@code Terminated}, as TiFlash reports while it starts or stops).
 * </ul>
 *
 * A pod that is not running cannot be reached.
 */
public final class SimulatedTiflashServers {

  /** What a TiFlash store that serves reports. */
  public static final String RUNNING = "Running";

  private final ClusterKey cluster;
  private final Set<String> running = new TreeSet<>();
  private final Map<String, String> storeStatus = new TreeMap<>();

  public SimulatedTiflashServers(ClusterKey cluster) {
    this.cluster = cluster;
  }

  /** Running servers are exactly the running TiFlash pods. */
  public synchronized void syncPods(List<PodInstance> pods) {
    running.clear();
    pods.stream().filter(PodInstance::running).map(PodInstance::name).forEach(running::add);
  }

  /** The running servers, by pod name. */
  public synchronized Set<String> running() {
    return Set.copyOf(running);
  }

  /**
   * Makes the server of {@code pod} report {@code status} on {@code /tiflash/store-status}, for
   * this pod name whatever pod runs under it, until set again ({@value #RUNNING} restores the
   * default).
   */
  public synchronized void setStoreStatus(String pod, String status) {
    if (RUNNING.equals(status)) {
      storeStatus.remove(pod);
    } else {
      storeStatus.put(pod, status);
    }
  }

  /** Answers one request to the TiFlash proxy status server of {@code pod}. */
  public synchronized SimResponse answer(String pod, SimRequest request) {
    if (!running.contains(pod)) {
      return SimResponse.unreachable("TiFlash server " + pod + " of " + cluster);
    }
    if ("GET".equals(request.method()) && "/tiflash/store-status".equals(request.path())) {
      return SimResponse.text(200, storeStatus.getOrDefault(pod, RUNNING));
    }
    return SimResponse.notFound();
  }
}
