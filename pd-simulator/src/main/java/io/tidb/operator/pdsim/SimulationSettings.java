package io.tidb.operator.pdsim;

import java.time.Duration;

/**
 * How a simulated PD cluster behaves over time.
 *
 * @param regionCount regions in a cluster once TiKV has bootstrapped it
 * @param leaderMovesPerStep leaders moved away from (or back to) one store per step
 * @param drainSteps steps an Offline store takes to move its regions away and become Tombstone
 * @param stepOnStoreRead whether each read of store state ({@code GET /stores}, {@code GET
 *     /store/{id}}) advances the simulation by one step, so polling makes progress
 * @param disconnectedAfter time without heartbeat after which an Up store shows "Disconnected"
 * @param downAfter time without heartbeat after which an Up store shows "Down" (PD's
 *     max-store-down-time)
 * @param storeCapacityBytes capacity each store reports
 * @param pdVersion the PD {@code binary_version}
 * @param storeVersion the TiKV/TiFlash store {@code version} (without "v", as TiKV reports it)
 * @param tidbVersion the TiDB {@code version} on its status endpoint
 */
public record SimulationSettings(
    int regionCount,
    int leaderMovesPerStep,
    int drainSteps,
    boolean stepOnStoreRead,
    Duration disconnectedAfter,
    Duration downAfter,
    long storeCapacityBytes,
    String pdVersion,
    String storeVersion,
    String tidbVersion) {

  public SimulationSettings {
    requireAtLeast("regionCount", regionCount, 1);
    requireAtLeast("leaderMovesPerStep", leaderMovesPerStep, 1);
    requireAtLeast("drainSteps", drainSteps, 1);
    if (disconnectedAfter.isNegative() || downAfter.compareTo(disconnectedAfter) < 0) {
      throw new IllegalArgumentException(
          "downAfter: invalid value " + downAfter + ": must be at least disconnectedAfter ("
              + disconnectedAfter + ") and neither may be negative");
    }
    if (storeCapacityBytes <= 0) {
      throw new IllegalArgumentException(
          "storeCapacityBytes: invalid value " + storeCapacityBytes + ": must be positive");
    }
  }

  private static void requireAtLeast(String field, int value, int min) {
    if (value < min) {
      throw new IllegalArgumentException(
          field + ": invalid value " + value + ": must be at least " + min);
    }
  }

  /** PD v8.5.7-like defaults: 60 regions, 10 leader moves and 3 drain steps per store. */
  public static SimulationSettings defaults() {
    return new SimulationSettings(
        60, 10, 3, true, Duration.ofSeconds(20), Duration.ofMinutes(30),
        100L * 1024 * 1024 * 1024, "v8.5.7", "8.5.7", "8.0.11-TiDB-v8.5.7");
  }

  public SimulationSettings withRegionCount(int value) {
    return new SimulationSettings(value, leaderMovesPerStep, drainSteps, stepOnStoreRead,
        disconnectedAfter, downAfter, storeCapacityBytes, pdVersion, storeVersion, tidbVersion);
  }

  public SimulationSettings withLeaderMovesPerStep(int value) {
    return new SimulationSettings(regionCount, value, drainSteps, stepOnStoreRead,
        disconnectedAfter, downAfter, storeCapacityBytes, pdVersion, storeVersion, tidbVersion);
  }

  public SimulationSettings withDrainSteps(int value) {
    return new SimulationSettings(regionCount, leaderMovesPerStep, value, stepOnStoreRead,
        disconnectedAfter, downAfter, storeCapacityBytes, pdVersion, storeVersion, tidbVersion);
  }

  public SimulationSettings withStepOnStoreRead(boolean value) {
    return new SimulationSettings(regionCount, leaderMovesPerStep, drainSteps, value,
        disconnectedAfter, downAfter, storeCapacityBytes, pdVersion, storeVersion, tidbVersion);
  }

  public SimulationSettings withHeartbeatTimeouts(Duration disconnected, Duration down) {
    return new SimulationSettings(regionCount, leaderMovesPerStep, drainSteps, stepOnStoreRead,
        disconnected, down, storeCapacityBytes, pdVersion, storeVersion, tidbVersion);
  }

  public SimulationSettings withPdVersion(String value) {
    return new SimulationSettings(regionCount, leaderMovesPerStep, drainSteps, stepOnStoreRead,
        disconnectedAfter, downAfter, storeCapacityBytes, value, storeVersion, tidbVersion);
  }
}
