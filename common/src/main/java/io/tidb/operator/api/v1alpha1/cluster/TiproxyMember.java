package io.tidb.operator.api.v1alpha1.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** A TiProxy member. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode
public class TiproxyMember {

  @JsonProperty("name")
  @JsonPropertyDescription("Member name.")
  private String name;

  @JsonProperty("health")
  @JsonPropertyDescription("The member is healthy.")
  private Boolean health;

  @JsonProperty("info")
  @JsonPropertyDescription("Member information.")
  private String info;

  @JsonProperty("lastTransitionTime")
  @JsonPropertyDescription("When health last changed (RFC 3339).")
  private String lastTransitionTime;
}
