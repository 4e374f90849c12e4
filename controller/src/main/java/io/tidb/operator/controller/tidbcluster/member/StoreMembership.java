package io.tidb.operator.controller.tidbcluster.member;

import io.tidb.operator.api.v1alpha1.cluster.StoresStatus;
import io.tidb.operator.api.v1alpha1.cluster.TikvStore;
import io.tidb.operator.controller.runtime.Conditions;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterApi;
import io.tidb.operator.pd.StoreState;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns PD's store lists into {@code status.tikv.stores} (this cluster's stores), {@code
 * peerStores} (other clusters') and {@code tombstoneStores}.
 */
public final class StoreMembership {

  private StoreMembership() {}

  /**
   * Records the stores in {@code status}. A store's {@code lastTransitionTime} moves to {@code
   * now} only when its state changes (or it is new).
   *
   * @param component the store component's name infix, {@code tikv}
   */
  public static void record(
      StoresStatus status,
      String cluster,
      String namespace,
      String component,
      List<ClusterApi.StoreView> stores,
      List<ClusterApi.StoreView> tombstones,
      Instant now) {
    Map<String, TikvStore> previous = new TreeMap<>();
    putAll(previous, status.getPeerStores());
    putAll(previous, status.getTombstoneStores());
    putAll(previous, status.getStores());
    Pattern own = ownAddress(cluster, namespace, component);
    Map<String, TikvStore> mine = new TreeMap<>();
    Map<String, TikvStore> peers = new TreeMap<>();
    for (ClusterApi.StoreView s : stores) {
      if (StoreState.TOMBSTONE.stateName().equals(s.state())) {
        continue;
      }
      Matcher m = own.matcher(s.address());
      (m.find() ? mine : peers).put(s.id(), store(s, previous.get(s.id()), now));
    }
    Map<String, TikvStore> gone = new TreeMap<>();
    for (ClusterApi.StoreView s : tombstones) {
      if (own.matcher(s.address()).find()) {
        gone.put(s.id(), store(s, previous.get(s.id()), now));
      }
    }
    status.setStores(mine.isEmpty() ? null : mine);
    status.setPeerStores(peers.isEmpty() ? null : peers);
    status.setTombstoneStores(gone.isEmpty() ? null : gone);
  }

  /** At least one of this cluster's stores is Up. */
  public static boolean anyUp(StoresStatus status) {
    return status != null
        && status.getStores() != null
        && status.getStores().values().stream().anyMatch(StoreMembership::up);
  }

  /** The stores are synced, exactly the desired number, and every one is Up. */
  public static boolean ready(StoresStatus status, int desired) {
    return status != null
        && Boolean.TRUE.equals(status.getSynced())
        && DesiredMembers.exactly(status.getStores(), desired, StoreMembership::up);
  }

  private static boolean up(TikvStore store) {
    return StoreState.UP.stateName().equals(store.getState());
  }

  private static TikvStore store(ClusterApi.StoreView s, TikvStore before, Instant now) {
    TikvStore t = new TikvStore();
    t.setId(s.id());
    String host = hostOf(s.address());
    t.setIp(host);
    t.setPodName(host.contains(".") ? host.substring(0, host.indexOf('.')) : host);
    t.setLeaderCount(s.leaderCount());
    t.setState(s.state());
    t.setLastTransitionTime(
        before != null
                && s.state().equals(before.getState())
                && before.getLastTransitionTime() != null
            ? before.getLastTransitionTime()
            : Conditions.timestamp(now));
    if (before != null) {
      t.setLeaderCountBeforeUpgrade(before.getLeaderCountBeforeUpgrade());
    }
    return t;
  }

  public static String hostOf(String address) {
    int colon = address.lastIndexOf(':');
    return colon > 0 ? address.substring(0, colon) : address;
  }

  /** {@code <tc>-<component>-N.<tc>-<component>-peer.<ns>.svc[...]:port}. */
  public static Pattern ownAddress(String cluster, String namespace, String component) {
    String c = Pattern.quote(cluster);
    String comp = Pattern.quote(component);
    return Pattern.compile(
        "^" + c + "-" + comp + "-\\d+\\." + c + "-" + comp + "-peer\\." + Pattern.quote(namespace)
            + "\\.svc([.:]|$)");
  }

  private static void putAll(Map<String, TikvStore> into, Map<String, TikvStore> from) {
    if (from != null) {
      into.putAll(from);
    }
  }
}
