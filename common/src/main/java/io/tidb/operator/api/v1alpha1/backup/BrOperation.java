package io.tidb.operator.api.v1alpha1.backup;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** A BR operation seen running, as upstream's BROperation. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode
public class BrOperation {

  @JsonProperty("operationID")
  @JsonPropertyDescription("The operation.")
  private String operationID;

  @JsonProperty("command")
  @JsonPropertyDescription("The BR command.")
  private String command;

  @JsonProperty("startedAt")
  @JsonPropertyDescription("When it started.")
  private String startedAt;

  @JsonProperty("observedAt")
  @JsonPropertyDescription("When it was last seen.")
  private String observedAt;
}
