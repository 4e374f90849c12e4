package io.tidb.operator.api.v1alpha1.dm;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** A dm-worker as the DM master API reports it. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode
public class WorkerMember {

  @JsonProperty("name")
  @JsonPropertyDescription("Worker name (the pod name).")
  private String name;

  @JsonProperty("addr")
  @JsonPropertyDescription("Address the worker serves on.")
  private String addr;

  @JsonProperty("stage")
  @JsonPropertyDescription("Worker stage: free, bound or offline.")
  private String stage;

  @JsonProperty("lastTransitionTime")
  @JsonPropertyDescription("When the stage last changed (RFC 3339).")
  private String lastTransitionTime;
}
