package io.tidb.operator.controller.tidbcluster.tikv;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * This cluster's TiKV stores as PD lists them right now, for the scale-in and upgrade rules.
 *
 * @param live stores that are not Tombstone, by pod name
 * @param tombstonePods pods whose store is a Tombstone (and that have no live store)
 * @param evicting store ids of this cluster in PD's evict-leader scheduler
 * @param evictBegan when the operator began evicting leaders, by pod name
 * @param requested store ids whose eviction a user asked for (pod annotation {@code
 *     tidb.pingcap.com/evict-leader}, or its record in {@code status.tikv.evictLeader} not yet
 *     ended): the scale-in, upgrade and idle rules never end these as stray
 * @param otherClustersUp Up TiKV stores of other TidbClusters in the same PD cluster
 */
public record TikvStores(
    Map<String, Store> live,
    Set<String> tombstonePods,
    Set<String> evicting,
    Map<String, Instant> evictBegan,
    Set<String> requested,
    int otherClustersUp) {

  public TikvStores {
    requested = requested == null ? Set.of() : Set.copyOf(requested);
  }

  /** The stores of a cluster alone in its PD cluster (no other TidbCluster's stores). */
  public TikvStores(
      Map<String, Store> live,
      Set<String> tombstonePods,
      Set<String> evicting,
      Map<String, Instant> evictBegan,
      Set<String> requested) {
    this(live, tombstonePods, evicting, evictBegan, requested, 0);
  }

  /**
   * Up TiKV stores in the whole PD cluster: this cluster's and, in a heterogeneous cluster,
   * those of the other TidbClusters sharing the PD ({@code otherClustersUp}), which all hold
   * replicas under PD's one {@code max-replicas}.
   */
  public long upInPd() {
    return upCount() + otherClustersUp;
  }

  /** Stores without user-requested evictions. */
  public TikvStores(
      Map<String, Store> live,
      Set<String> tombstonePods,
      Set<String> evicting,
      Map<String, Instant> evictBegan) {
    this(live, tombstonePods, evicting, evictBegan, Set.of());
  }

  /** Evicting stores no user asked for: the ones the stray rules may end. */
  public Set<String> strayCandidates() {
    Set<String> s = new java.util.TreeSet<>(evicting);
    s.removeAll(requested);
    return s;
  }

  /**
   * The first stray eviction to end: an evicting store no user asked for and not in {@code keep}
   * (the stores an operation in progress needs), with its pod (null once it left the cluster).
   */
  public Optional<TikvActions.EndEvict> strayEviction(Set<String> keep) {
    for (String id : strayCandidates()) {
      if (!keep.contains(id)) {
        return Optional.of(new TikvActions.EndEvict(id, podOf(id)));
      }
    }
    return Optional.empty();
  }

  /** One live store. */
  public record Store(String id, String pod, String state, int leaderCount, int regionCount) {
    public boolean up() {
      return "Up".equals(state);
    }

    public boolean offline() {
      return "Offline".equals(state);
    }

    public String label() {
      return "store " + id + " (" + pod + ")";
    }
  }

  public Optional<Store> of(String pod) {
    return Optional.ofNullable(live.get(pod));
  }

  public long upCount() {
    return live.values().stream().filter(Store::up).count();
  }

  /** The pod of an evicting store id, or null when it is not live. */
  public String podOf(String storeId) {
    return live.values().stream()
        .filter(s -> s.id().equals(storeId))
        .map(Store::pod)
        .findFirst()
        .orElse(null);
  }
}
