package io.tidb.operator.api.v1alpha1.backup;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** A condition of a Restore, as upstream's RestoreCondition, plus observedGeneration. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode
public class RestoreCondition {

  @JsonProperty("type")
  @JsonPropertyDescription("Scheduled, Prepare, Running, Complete, Failed, Invalid, Cleaned, ...")
  private String type;

  @JsonProperty("status")
  @JsonPropertyDescription("True, False or Unknown.")
  private String status;

  @JsonProperty("lastTransitionTime")
  @JsonPropertyDescription("When the status last changed.")
  private String lastTransitionTime;

  @JsonProperty("reason")
  @JsonPropertyDescription("One word, CamelCase.")
  private String reason;

  @JsonProperty("message")
  @JsonPropertyDescription("What happened, for people.")
  private String message;

  @JsonProperty("observedGeneration")
  @JsonPropertyDescription("The generation the condition was computed from.")
  private Long observedGeneration;
}
