package io.tidb.operator.pdsim;

import java.time.Clock;
import java.util.ArrayList;
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
  private final Map<ClusterKey, ClusterKey> joins = new ConcurrentSkipListMap<>();
  private final Map<ClusterKey, SimulatedTicdcServers> ticdc = new ConcurrentSkipListMap<>();
  private final Map<ClusterKey, SimulatedTiproxyServers> tiproxy = new ConcurrentSkipListMap<>();
  private final Map<ClusterKey, SimulatedPumpServers> pump = new ConcurrentSkipListMap<>();
  private final Map<ClusterKey, SimulatedTiflashServers> tiflash = new ConcurrentSkipListMap<>();

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

  public SimulatedTiproxyServers tiproxy(ClusterKey key) {
    return tiproxy.computeIfAbsent(key, SimulatedTiproxyServers::new);
  }

  public SimulatedTiflashServers tiflash(ClusterKey key) {
    return tiflash.computeIfAbsent(key, SimulatedTiflashServers::new);
  }

  public SimulatedPumpServers pump(ClusterKey key) {
    return pump.computeIfAbsent(key, SimulatedPumpServers::new);
  }

  public List<ClusterKey> keys() {
    return List.copyOf(pd.keySet());
  }

  /**
   * Declares a heterogeneous cluster: the stores and members of {@code member}'s pods join the
   * PD of {@code pdOwner} (its {@code spec.cluster}), as they do when their start scripts name
   * that PD; {@code member}'s TiDB servers stay its own.
   */
  public void join(ClusterKey member, ClusterKey pdOwner) {
    joins.put(member, pdOwner);
  }

  /** The cluster whose PD {@code key}'s pods join: its own unless {@link #join declared}. */
  public ClusterKey pdOwnerOf(ClusterKey key) {
    return joins.getOrDefault(key, key);
  }

  /**
   * Applies the pods of every cluster sharing one PD: all their PD and store pods to the PD of
   * {@code pdOwner}, each cluster's TiDB, TiCDC, TiProxy and TiFlash pods to its own servers, and its
   * Pump pods to its own servers, which register in {@code pdOwner}'s etcd.
   */
  public void syncPods(ClusterKey pdOwner, Map<ClusterKey, ClusterPods> byCluster) {
    List<PodInstance> pdPods = new ArrayList<>();
    List<PodInstance> tikv = new ArrayList<>();
    List<PodInstance> tiflash = new ArrayList<>();
    byCluster.values().forEach(p -> {
      pdPods.addAll(p.pd());
      tikv.addAll(p.tikv());
      tiflash.addAll(p.tiflash());
    });
    pd(pdOwner).syncPods(new ClusterPods(pdPods, tikv, tiflash, List.of(), List.of()));
    byCluster.forEach((key, pods) -> {
      tidb(key).syncPods(pods.tidb());
      ticdc(key).syncPods(pods.ticdc());
      tiproxy(key).syncPods(pods.tiproxy());
      tiflash(key).syncPods(pods.tiflash());
      pump(key).syncPods(pods.pump(), pd(pdOwner).etcd());
    });
  }

  /** Advances every cluster by one step. */
  public void stepAll() {
    pd.values().forEach(SimulatedPdCluster::step);
    ticdc.values().forEach(SimulatedTicdcServers::step);
    pump.values().forEach(SimulatedPumpServers::step);
  }
}
