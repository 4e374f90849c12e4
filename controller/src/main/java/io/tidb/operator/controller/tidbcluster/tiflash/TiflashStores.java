package io.tidb.operator.controller.tidbcluster.tiflash;

import io.tidb.operator.api.v1alpha1.cluster.TiflashStatus;
import io.tidb.operator.api.v1alpha1.cluster.TikvStore;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * This cluster's TiFlash stores as the scale-in and upgrade rules see them: the live store of each
 * pod (from {@code status.tiflash.stores}, read from PD this reconcile) and the pods whose store
 * PD lists as Tombstone.
 */
record TiflashStores(Map<String, Store> byPod, Set<String> tombstonePods) {

  /** One live store. */
  record Store(String id, String pod, String state) {
    boolean up() {
      return "Up".equals(state);
    }

    boolean offline() {
      return "Offline".equals(state);
    }

    String label() {
      return "TiFlash store " + id + " (" + pod + ")";
    }
  }

  TiflashStores {
    byPod = Map.copyOf(byPod);
    tombstonePods = Set.copyOf(tombstonePods);
  }

  static TiflashStores of(TiflashStatus status) {
    Map<String, Store> live = new TreeMap<>();
    Set<String> gone = new TreeSet<>();
    if (status != null && status.getStores() != null) {
      for (TikvStore s : status.getStores().values()) {
        live.put(s.getPodName(), new Store(s.getId(), s.getPodName(), s.getState()));
      }
    }
    if (status != null && status.getTombstoneStores() != null) {
      for (TikvStore s : status.getTombstoneStores().values()) {
        if (!live.containsKey(s.getPodName())) {
          gone.add(s.getPodName());
        }
      }
    }
    return new TiflashStores(live, gone);
  }

  Optional<Store> of(String pod) {
    return Optional.ofNullable(byPod.get(pod));
  }
}
