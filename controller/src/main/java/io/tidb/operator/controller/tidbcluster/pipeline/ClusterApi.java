package io.tidb.operator.controller.tidbcluster.pipeline;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What the reconciler asks one cluster's PD and TiDB servers, in PD's own terms: every store PD
 * lists, whatever its engine; each component's package picks what is its own. Every call may fail
 * with an {@link IOException} (unreachable, timed out, or an unexpected answer); callers treat
 * that as "not synced yet", not as a reconcile error. Tests use an in-memory fake.
 */
public interface ClusterApi {

  /** PD's {@code GET /pd/api/v1/health}. */
  List<MemberHealth> pdHealth() throws IOException;

  /**
   * Where PD is read when not through the cluster's own PD Service: the PD member of another
   * TidbCluster that answered while the Service did not (e.g. "PD member other-pd-0 at
   * http://…"); empty when PD is read through its Service.
   */
  default Optional<String> pdReadThrough() {
    return Optional.empty();
  }

  /** The PD leader's name ({@code GET /pd/api/v1/leader}); empty when PD has none. */
  Optional<String> pdLeader() throws IOException;

  /** The PD cluster id ({@code GET /pd/api/v1/cluster}), unsigned, in decimal. */
  String clusterId() throws IOException;

  /**
   * The stores PD knows and the tombstones, from one {@code GET /pd/api/v1/stores?state=0&state=1&state=2};
   * empty when the cluster is not bootstrapped yet (no store has joined).
   */
  Optional<Stores> stores() throws IOException;

  /** Whether the TiDB server in {@code pod} answers its status port with 200. */
  boolean tidbHealthy(String pod);

  /** PD's {@code replication.max-replicas} ({@code GET /pd/api/v1/config}). */
  int maxReplicas() throws IOException;

  /**
   * The most TiFlash replicas a table asks for (PD's placement rules of group {@code tiflash}): a
   * TiFlash scale-in never leaves fewer Up stores.
   */
  int tiflashReplicasNeeded() throws IOException;

  /**
   * PD's snapshot-recovering mark ({@code GET /pd/api/v1/admin/cluster/markers/snapshot-recovering}):
   * set while a volume-snapshot restore is under way.
   */
  boolean snapshotRecovering() throws IOException;

  /** PD's {@code replication.location-labels} ({@code GET /pd/api/v1/config}). */
  List<String> locationLabels() throws IOException;

  /** PD's {@code replication.enable-placement-rules} ({@code GET /pd/api/v1/config}). */
  boolean placementRulesEnabled() throws IOException;

  /**
   * Turns placement rules on, as TiFlash needs ({@code POST /pd/api/v1/config/replicate} with
   * {@code {"enable-placement-rules":"true"}}).
   */
  void enablePlacementRules() throws IOException;

  /**
   * {@code GET /pd/api/v2/ready} on one member: true when it has loaded its regions (PD before
   * v8.5.2, which has no such endpoint, counts as ready).
   */
  boolean pdMemberReady(String member) throws IOException;

  /** Moves PD leadership to {@code member} ({@code POST /pd/api/v1/leader/transfer/{name}}). */
  void transferPdLeader(String member) throws IOException;

  /**
   * Removes a PD member ({@code DELETE /pd/api/v1/members/name/{name}}).
   *
   * @return false when PD has no such member any more (nothing was sent)
   */
  boolean deletePdMember(String member) throws IOException;

  /**
   * Removes a PD member by id ({@code DELETE /pd/api/v1/members/id/{id}}), as a failover does.
   *
   * @return false when PD has no such member any more (nothing was sent)
   */
  boolean deletePdMemberById(String memberId) throws IOException;

  /**
   * Sets a store Offline ({@code DELETE /pd/api/v1/store/{id}}), so PD moves its regions away.
   *
   * @return false when PD no longer lists the store as Up or Offline (nothing was sent)
   */
  boolean deleteStore(String storeId) throws IOException;

  /** Turns an Offline store back to Up ({@code POST /pd/api/v1/store/{id}/state?state=Up}). */
  void cancelStoreRemoval(String storeId) throws IOException;

  /** Starts PD's evict-leader scheduler for a store. */
  void beginEvictLeader(String storeId) throws IOException;

  /** Stops PD's evict-leader scheduler for a store; a store not being evicted is fine. */
  void endEvictLeader(String storeId) throws IOException;

  /** The stores PD's evict-leader scheduler is moving leaders away from. */
  Set<String> evictLeaderStoreIds() throws IOException;

  /**
   * {@code GET /tiflash/store-status} of the TiFlash server in {@code pod} (its proxy status
   * port): the store's status, e.g. {@code Running}.
   */
  String tiflashStoreStatus(String pod) throws IOException;

  /** {@code GET /status} of the TiCDC server in {@code pod}: its capture. */
  TicdcCaptureStatus ticdcStatus(String pod) throws IOException;

  /**
   * {@code GET /api/v1/captures} asked of the TiCDC server in {@code pod}; empty when TiCDC asks
   * to retry (503), an empty list when it has no such API.
   */
  Optional<List<TicdcCapture>> ticdcCaptures(String pod) throws IOException;

  /** {@code PUT /api/v1/captures/drain} sent to the TiCDC server in {@code pod}. */
  TicdcDrain drainTicdcCapture(String pod, String captureId) throws IOException;

  /**
   * {@code POST /api/v1/owner/resign} sent to the TiCDC server in {@code pod}: false when TiCDC
   * asks to retry; true when accepted or when the version has no such API.
   */
  boolean resignTicdcOwner(String pod) throws IOException;

  /** {@code GET /api/v1/health} of the TiCDC server in {@code pod}. */
  boolean ticdcHealthy(String pod) throws IOException;

  /**
   * {@code GET /api/debug/health} of the TiProxy server in {@code pod}: its answer when healthy;
   * an {@link IOException} when it is not or cannot be reached.
   */
  String tiproxyHealth(String pod) throws IOException;

  /** {@code PUT /api/admin/config/} with {@code [labels]} on the TiProxy server in {@code pod}. */
  void setTiproxyLabels(String pod, Map<String, String> labels) throws IOException;

  /** The pumps registered in PD's etcd ({@code /tidb-binlog/v1/pumps/<nodeId>}). */
  List<PumpNode> pumps() throws IOException;

  /** {@code PUT /state/<nodeId>/close} sent to the pump in {@code pod}: it goes offline. */
  void offlinePump(String pod, String nodeId) throws IOException;

  /** One pump of the binlog registry; {@code host} is the address it advertises. */
  record PumpNode(String nodeId, String host, String state) {}

  /** A TiCDC server's own capture. */
  record TicdcCaptureStatus(String id, String version, boolean owner) {}

  /** One capture of the TiCDC cluster; {@code address} is what it advertises. */
  record TicdcCapture(String id, boolean owner, String address) {}

  /** A drain's answer: tables left on the capture, retry (503), or no drain API (404). */
  record TicdcDrain(int tableCount, boolean retry, boolean unsupported) {}

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
   * @param regionCount region replicas on the store (an Offline store drains them to 0)
   * @param labels the store's labels ({@code engine=tiflash} marks a TiFlash store)
   */
  record StoreView(
      String id,
      String address,
      String state,
      int leaderCount,
      int regionCount,
      Map<String, String> labels) {
    public StoreView {
      labels = labels == null ? Map.of() : Map.copyOf(labels);
    }

    /** Convenience for stores without labels or regions. */
    public StoreView(String id, String address, String state, int leaderCount) {
      this(id, address, state, leaderCount, 0, Map.of());
    }
  }

  /** PD's store lists. */
  record Stores(List<StoreView> live, List<StoreView> tombstones) {}
}
