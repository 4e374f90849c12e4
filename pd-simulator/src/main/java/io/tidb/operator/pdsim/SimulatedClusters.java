package io.tidb.operator.pdsim;

import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * Every simulated cluster of one simulator, by TidbCluster; a cluster is created on first use,
 * with no member until pods (or a test) add some.
 */
public final class SimulatedClusters {

  private final SimulationSettings settings;
  private final Clock clock;
  private final Random random;
  private final Map<ClusterKey, SimulatedPdCluster> pd = new ConcurrentSkipListMap<>();
  private final Map<ClusterKey, SimulatedTidbServers> tidb = new ConcurrentSkipListMap<>();
  private final Map<ClusterKey, SimulatedTicdcServers> ticdc = new ConcurrentSkipListMap<>();

  public SimulatedClusters() {
    this(SimulationSettings.defaults(), Clock.systemUTC(), new Random());
  }

  public SimulatedClusters(SimulationSettings settings, Clock clock, Random random) {
    this.settings = settings;
    this.clock = clock;
    this.random = random;
  }

  public SimulatedPdCluster pd(ClusterKey key) {
    return pd.computeIfAbsent(key, k -> new SimulatedPdCluster(k, settings, clock, random));
  }

  public SimulatedPdCluster pd(String namespace, String name) {
    return pd(new ClusterKey(namespace, name));
  }

  /** The cluster if it exists, without creating it. */
  public Optional<SimulatedPdCluster> existing(ClusterKey key) {
    return Optional.ofNullable(pd.get(key));
  }

  public SimulatedTidbServers tidb(ClusterKey key) {
    return tidb.computeIfAbsent(key, k -> new SimulatedTidbServers());
  }

  public SimulatedTicdcServers ticdc(ClusterKey key) {
    return ticdc.computeIfAbsent(key, SimulatedTicdcServers::new);
  }

  public List<ClusterKey> keys() {
    return List.copyOf(pd.keySet());
  }

  /** Applies the pods of one cluster to its PD state, TiDB and TiCDC servers. */
  public void syncPods(ClusterKey key, ClusterPods pods) {
    pd(key).syncPods(pods);
    tidb(key).syncPods(pods.tidb());
    ticdc(key).syncPods(pods.ticdc());
  }

  /** Advances every cluster by one step. */
  public void stepAll() {
    pd.values().forEach(SimulatedPdCluster::step);
    ticdc.values().forEach(SimulatedTicdcServers::step);
  }
}
