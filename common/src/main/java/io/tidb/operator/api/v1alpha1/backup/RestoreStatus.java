package io.tidb.operator.api.v1alpha1.backup;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.List;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** What the controller and the backup-manager report about a Restore, as upstream's RestoreStatus. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode
public class RestoreStatus {

  @JsonProperty("timeStarted")
  @JsonPropertyDescription("When the restore started.")
  private String timeStarted;

  @JsonProperty("timeCompleted")
  @JsonPropertyDescription("When it completed.")
  private String timeCompleted;

  @JsonProperty("timeTaken")
  @JsonPropertyDescription("How long it took.")
  private String timeTaken;

  @JsonProperty("commitTs")
  @JsonPropertyDescription("The TSO the restored data is consistent at.")
  private String commitTs;

  @JsonProperty("phase")
  @JsonPropertyDescription("Scheduled, Running, Complete, Failed, Invalid, ...")
  private String phase;

  @JsonProperty("conditions")
  @JsonPropertyDescription("Conditions, one per type.")
  private List<RestoreCondition> conditions;

  @JsonProperty("progresses")
  @JsonPropertyDescription("BR progress.")
  private List<Progress> progresses;

  @JsonProperty("brOperations")
  @JsonPropertyDescription("BR operations seen.")
  private List<BrOperation> brOperations;

  @JsonProperty("replicationStep")
  @JsonPropertyDescription("Replication restore step.")
  private String replicationStep;

  @JsonProperty("observedGeneration")
  @JsonPropertyDescription("The generation the controller last acted on.")
  private Long observedGeneration;
}
