package io.tidb.operator.api.v1alpha1.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** A PD member as PD reports it. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode
public class PdMember {

  @JsonProperty("name")
  @JsonPropertyDescription("Member name.")
  private String name;

  @JsonProperty("id")
  @JsonPropertyDescription("Member ID.")
  private String id;

  @JsonProperty("clientURL")
  @JsonPropertyDescription("Client URL of the member.")
  private String clientURL;

  @JsonProperty("health")
  @JsonPropertyDescription("PD reports the member healthy.")
  private Boolean health;

  @JsonProperty("lastTransitionTime")
  @JsonPropertyDescription("When health last changed (RFC 3339).")
  private String lastTransitionTime;
}
