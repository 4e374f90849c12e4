package io.tidb.operator.pdsim;

import java.util.List;

/** PD's {@code replication} configuration section ({@code sc.ReplicationConfig}). */
public record ReplicationConfig(
    int maxReplicas,
    List<String> locationLabels,
    boolean strictlyMatchLabel,
    boolean enablePlacementRules,
    boolean enablePlacementRulesCache,
    String isolationLevel) {

  public ReplicationConfig {
    locationLabels = List.copyOf(locationLabels);
  }

  /** PD's defaults: 3 replicas, no location labels, placement rules on. */
  public static ReplicationConfig defaults() {
    return new ReplicationConfig(3, List.of(), false, true, false, "");
  }

  public ReplicationConfig withMaxReplicas(int value) {
    return new ReplicationConfig(value, locationLabels, strictlyMatchLabel, enablePlacementRules,
        enablePlacementRulesCache, isolationLevel);
  }

  public ReplicationConfig withLocationLabels(List<String> value) {
    return new ReplicationConfig(maxReplicas, value, strictlyMatchLabel, enablePlacementRules,
        enablePlacementRulesCache, isolationLevel);
  }
}
