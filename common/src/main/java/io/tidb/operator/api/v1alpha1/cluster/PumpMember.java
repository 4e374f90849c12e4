package io.tidb.operator.api.v1alpha1.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** A Pump node as it registers itself. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode
public class PumpMember {

  @JsonProperty("nodeId")
  @JsonPropertyDescription("Node ID.")
  private String nodeId;

  @JsonProperty("host")
  @JsonPropertyDescription("Address of the node.")
  private String host;

  @JsonProperty("state")
  @JsonPropertyDescription("Node state.")
  private String state;
}
