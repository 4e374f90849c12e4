package io.tidb.operator.api.v1alpha1.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.Map;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** Observed state of a store component (TiKV or TiFlash). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode(callSuper = true)
public abstract class StoresStatus extends ComponentStatus {

  @JsonProperty("bootStrapped")
  @JsonPropertyDescription("The component has bootstrapped.")
  private Boolean bootStrapped;

  @JsonProperty("stores")
  @JsonPropertyDescription("Stores of this TidbCluster, by store ID.")
  private Map<String, TikvStore> stores;

  @JsonProperty("peerStores")
  @JsonPropertyDescription("Stores of other TidbClusters, by store ID.")
  private Map<String, TikvStore> peerStores;

  @JsonProperty("tombstoneStores")
  @JsonPropertyDescription("Tombstone stores, by store ID.")
  private Map<String, TikvStore> tombstoneStores;

  @JsonProperty("failureStores")
  @JsonPropertyDescription("Failed-over stores, by store ID.")
  private Map<String, FailureStore> failureStores;

  @JsonProperty("failoverUID")
  @JsonPropertyDescription("Identifies the current failover round.")
  private String failoverUID;
}
