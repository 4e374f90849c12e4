package io.tidb.operator.controller.tidbcluster.pipeline;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the reconciler asks one cluster's PD and TiDB servers, in PD's own terms: every store PD
 * lists, whatever its engine; each component's package picks what is its own. Every call may fail
 * with an {@link IOException} (unreachable, timed out, or an unexpected answer); callers treat
 * that as "not synced yet", not as a reconcile error. Tests use an in-memory fake.
 */
public interface ClusterApi {

  /** PD's {@code GET /pd/api/v1/health}. */
  List<MemberHealth> pdHealth() throws IOException;

  /** The PD leader's name ({@code GET /pd/api/v1/leader}); empty when PD has none. */
  Optional<String> pdLeader() throws IOException;

  /** The PD cluster id ({@code GET /pd/api/v1/cluster}), unsigned, in decimal. */
  String clusterId() throws IOException;

  /**
   * The stores PD knows ({@code GET /pd/api/v1/stores}) and the tombstones ({@code ?state=2});
   * empty when the cluster is not bootstrapped yet (no store has joined).
   */
  Optional<Stores> stores() throws IOException;

  /** Whether the TiDB server in {@code pod} answers its status port with 200. */
  boolean tidbHealthy(String pod);

  /**
   * One entry of PD's health list.
   *
   * @param memberId PD's unsigned 64-bit member id, in decimal
   */
  record MemberHealth(String name, String memberId, List<String> clientUrls, boolean health) {
    public MemberHealth {
      clientUrls = clientUrls == null ? List.of() : List.copyOf(clientUrls);
    }
  }

  /**
   * One store as PD lists it.
   *
   * @param address {@code host:port} the store advertises
   * @param state PD's {@code state_name}: Up, Offline, Down, Tombstone, Disconnected
   * @param labels the store's labels ({@code engine=tiflash} marks a TiFlash store)
   */
  record StoreView(
      String id, String address, String state, int leaderCount, Map<String, String> labels) {
    public StoreView {
      labels = labels == null ? Map.of() : Map.copyOf(labels);
    }

    /** Convenience for stores without labels. */
    public StoreView(String id, String address, String state, int leaderCount) {
      this(id, address, state, leaderCount, Map.of());
    }
  }

  /** PD's store lists. */
  record Stores(List<StoreView> live, List<StoreView> tombstones) {}
}
