package io.tidb.operator.api.v1alpha1.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** Leader eviction of one TiKV pod. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode
public class EvictLeaderStatus {

  @JsonProperty("podCreateTime")
  @JsonPropertyDescription("Creation time of the pod (RFC 3339).")
  private String podCreateTime;

  @JsonProperty("beginTime")
  @JsonPropertyDescription("When eviction began (RFC 3339).")
  private String beginTime;

  @JsonProperty("value")
  @JsonPropertyDescription("Value of the eviction annotation.")
  private String value;
}
