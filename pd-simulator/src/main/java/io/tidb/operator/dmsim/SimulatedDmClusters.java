package io.tidb.operator.dmsim;

import io.tidb.operator.pdsim.ClusterKey;
import io.tidb.operator.pdsim.PodInstance;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** The simulated DM clusters, one per DMCluster, created on first use. */
public final class SimulatedDmClusters {

  private final Map<ClusterKey, SimulatedDmCluster> clusters = new ConcurrentHashMap<>();

  public SimulatedDmCluster cluster(ClusterKey key) {
    return clusters.computeIfAbsent(key, SimulatedDmCluster::new);
  }

  public void syncPods(ClusterKey key, List<PodInstance> masters, List<PodInstance> workers) {
    cluster(key).syncPods(masters, workers);
  }
}
