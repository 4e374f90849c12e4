package io.tidb.operator.api.v1alpha1.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** A TiKV or TiFlash store as PD reports it. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode
public class TikvStore {

  @JsonProperty("id")
  @JsonPropertyDescription("Store ID.")
  private String id;

  @JsonProperty("podName")
  @JsonPropertyDescription("Pod of the store.")
  private String podName;

  @JsonProperty("ip")
  @JsonPropertyDescription("Address of the store.")
  private String ip;

  @JsonProperty("leaderCount")
  @JsonPropertyDescription("Region leaders on the store.")
  private Integer leaderCount;

  @JsonProperty("state")
  @JsonPropertyDescription("Store state: Up, Down, Offline, Tombstone, Disconnected.")
  private String state;

  @JsonProperty("lastTransitionTime")
  @JsonPropertyDescription("When the state last changed (RFC 3339).")
  private String lastTransitionTime;

  @JsonProperty("leaderCountBeforeUpgrade")
  @JsonPropertyDescription("Leader count before the store was restarted for an upgrade.")
  private Integer leaderCountBeforeUpgrade;
}
