package io.tidb.operator.api.v1alpha1.dm;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** A dm-master member as the DM master API reports it. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode
public class MasterMember {

  @JsonProperty("name")
  @JsonPropertyDescription("Member name (the pod name).")
  private String name;

  @JsonProperty("id")
  @JsonPropertyDescription("Member ID (an unsigned 64-bit integer, as a string).")
  private String id;

  @JsonProperty("clientURL")
  @JsonPropertyDescription("Client URL of the member.")
  private String clientURL;

  @JsonProperty("health")
  @JsonPropertyDescription("The DM master API reports the member alive.")
  private Boolean health;

  @JsonProperty("lastTransitionTime")
  @JsonPropertyDescription("When health last changed (RFC 3339).")
  private String lastTransitionTime;
}
