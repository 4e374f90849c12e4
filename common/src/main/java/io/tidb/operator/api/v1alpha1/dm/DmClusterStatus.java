package io.tidb.operator.api.v1alpha1.dm;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.List;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** Observed state of a DM cluster. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode
public class DmClusterStatus {

  @JsonProperty("observedGeneration")
  @JsonPropertyDescription("metadata.generation the status was computed from.")
  private Long observedGeneration;

  @JsonProperty("master")
  @JsonPropertyDescription("dm-master.")
  private MasterStatus master;

  @JsonProperty("worker")
  @JsonPropertyDescription("dm-worker.")
  private WorkerStatus worker;

  @JsonProperty("conditions")
  @JsonPropertyDescription("Cluster conditions; type Ready tells whether every member is up and current.")
  private List<Condition> conditions;
}
