package io.tidb.operator.pdsim;

import java.util.List;

/** PD's {@code replication} configuration section ({@code sc.SimulatedReplicationConfig}). */
public record SimulatedReplicationConfig(
    int maxReplicas,
    List<String> locationLabels,
    boolean strictlyMatchLabel,
    boolean enablePlacementRules,
    boolean enablePlacementRulesCache,
    String isolationLevel) {

  public SimulatedReplicationConfig {
    locationLabels = List.copyOf(locationLabels);
  }

  /** PD's defaults: 3 replicas, no location labels, placement rules on. */
  public static SimulatedReplicationConfig defaults() {
    return new SimulatedReplicationConfig(3, List.of(), false, true, false, "");
  }

  public SimulatedReplicationConfig withMaxReplicas(int value) {
    return new SimulatedReplicationConfig(value, locationLabels, strictlyMatchLabel, enablePlacementRules,
        enablePlacementRulesCache, isolationLevel);
  }

  public SimulatedReplicationConfig withLocationLabels(List<String> value) {
    return new SimulatedReplicationConfig(maxReplicas, value, strictlyMatchLabel, enablePlacementRules,
        enablePlacementRulesCache, isolationLevel);
  }
}
