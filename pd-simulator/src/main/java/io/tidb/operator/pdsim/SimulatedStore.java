package io.tidb.operator.pdsim;

import java.time.Instant;
import java.util.Map;

/**
 * A snapshot of one store as PD reports it.
 *
 * @param stateName PD's display name: Up, Disconnected, Down, Offline or Tombstone
 * @param heartbeating whether the store's server is running and heartbeating to PD
 */
public record SimulatedStore(
    long id,
    String podName,
    StoreEngine engine,
    String address,
    String peerAddress,
    String statusAddress,
    Map<String, String> labels,
    SimulatedStoreState state,
    NodeState nodeState,
    String stateName,
    boolean physicallyDestroyed,
    boolean heartbeating,
    int leaderCount,
    int regionCount,
    Instant startTime,
    Instant lastHeartbeat) {}
