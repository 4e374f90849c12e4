package io.tidb.operator.api.v1alpha1.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.Map;
import java.util.Objects;

/** Observed state of a store component (TiKV or TiFlash). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
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

  public Boolean getBootStrapped() {
    return bootStrapped;
  }

  public void setBootStrapped(Boolean bootStrapped) {
    this.bootStrapped = bootStrapped;
  }

  public Map<String, TikvStore> getStores() {
    return stores;
  }

  public void setStores(Map<String, TikvStore> stores) {
    this.stores = stores;
  }

  public Map<String, TikvStore> getPeerStores() {
    return peerStores;
  }

  public void setPeerStores(Map<String, TikvStore> peerStores) {
    this.peerStores = peerStores;
  }

  public Map<String, TikvStore> getTombstoneStores() {
    return tombstoneStores;
  }

  public void setTombstoneStores(Map<String, TikvStore> tombstoneStores) {
    this.tombstoneStores = tombstoneStores;
  }

  public Map<String, FailureStore> getFailureStores() {
    return failureStores;
  }

  public void setFailureStores(Map<String, FailureStore> failureStores) {
    this.failureStores = failureStores;
  }

  public String getFailoverUID() {
    return failoverUID;
  }

  public void setFailoverUID(String failoverUID) {
    this.failoverUID = failoverUID;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    if (!super.equals(o)) {
      return false;
    }
    StoresStatus that = (StoresStatus) o;
    return Objects.equals(bootStrapped, that.bootStrapped)
        && Objects.equals(stores, that.stores)
        && Objects.equals(peerStores, that.peerStores)
        && Objects.equals(tombstoneStores, that.tombstoneStores)
        && Objects.equals(failureStores, that.failureStores)
        && Objects.equals(failoverUID, that.failoverUID);
  }

  @Override
  public int hashCode() {
    return Objects.hash(super.hashCode(), bootStrapped, stores, peerStores, tombstoneStores, failureStores, failoverUID);
  }
}
