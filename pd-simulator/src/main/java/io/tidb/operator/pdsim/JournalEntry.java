package io.tidb.operator.pdsim;

import java.time.Instant;
import java.util.List;

/**
 * One state transition of a simulated PD cluster, with the cluster's counts <em>after</em> it.
 * The journal ({@link SimulatedPdCluster#journal()}) lists them oldest first, so a checker can
 * replay the history of a run instead of judging only its final snapshot.
 *
 * @param seq 1, 2, 3... per cluster, in the order the transitions happened
 * @param event what changed
 * @param storeId the store of a {@code store-*} or {@code evict-leader-*} event, else null
 * @param pod the pod of the store of a {@code store-*} event, else null
 * @param member the member of a {@code member-*} event, the new leader of {@code leader-changed}
 *     (null when there is none), else null
 * @param leader the PD leader after the transition, or null
 * @param members PD members (healthy or not)
 * @param healthyMembers PD members whose pod runs
 * @param upTikvStores TiKV stores in state Up (PD's metapb state: this includes Up stores that
 *     stopped heartbeating and show Disconnected or Down)
 * @param offlineTikvStores TiKV stores in state Offline (being removed)
 * @param tombstoneTikvPods TiKV stores that are Tombstone while their pod still exists and is not
 *     being deleted (the scale-in of that pod has not finished); only pod-backed stores count
 * @param stoppedTikvStores Up TiKV stores whose server does not heartbeat (its pod stopped,
 *     restarts or is gone)
 * @param evictLeaderStores store ids in the evict-leader scheduler
 * @param maxReplicas the replication config's max-replicas
 */
public record JournalEntry(
    long seq,
    Instant time,
    Event event,
    Long storeId,
    String pod,
    String member,
    String leader,
    int members,
    int healthyMembers,
    int upTikvStores,
    int offlineTikvStores,
    int tombstoneTikvPods,
    int stoppedTikvStores,
    List<Long> evictLeaderStores,
    int maxReplicas) {

  public JournalEntry {
    evictLeaderStores = List.copyOf(evictLeaderStores);
  }

  /** The kinds of transition; {@link #wireName()} is how {@code /sim/journal} spells them. */
  public enum Event {
    MEMBER_ADDED("member-added"),
    MEMBER_DELETED("member-deleted"),
    MEMBER_HEALTHY("member-healthy"),
    MEMBER_UNHEALTHY("member-unhealthy"),
    LEADER_CHANGED("leader-changed"),
    REPLICATION_CHANGED("replication-changed"),
    STORE_JOINED("store-joined"),
    /** Up → Offline: {@code DELETE /store/{id}} or {@code state=Offline}. */
    STORE_OFFLINE("store-offline"),
    /** Offline → Up: {@code state=Up} cancelled a removal. */
    STORE_UP("store-up"),
    /** Offline → Tombstone: drained, or its pod went away while Offline. */
    STORE_TOMBSTONE("store-tombstone"),
    STORE_HEARTBEAT_LOST("store-heartbeat-lost"),
    STORE_HEARTBEAT_RESUMED("store-heartbeat-resumed"),
    /** The pod of a Tombstone store is gone or being deleted (its scale-in is complete). */
    STORE_POD_REMOVED("store-pod-removed"),
    EVICT_LEADER_BEGIN("evict-leader-begin"),
    EVICT_LEADER_END("evict-leader-end");

    private final String wireName;

    Event(String wireName) {
      this.wireName = wireName;
    }

    public String wireName() {
      return wireName;
    }
  }
}
