package io.tidb.operator.pd;

import java.util.List;

/** The {@code replication} section of {@code GET /pd/api/v1/config}. */
public record PdReplicationConfig(
    int maxReplicas, List<String> locationLabels, boolean enablePlacementRules) {

  public PdReplicationConfig {
    locationLabels = List.copyOf(locationLabels);
  }
}
