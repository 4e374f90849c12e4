package io.tidb.operator.api.v1alpha1.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.Map;
import java.util.Objects;

/** A store the operator failed over. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class FailureStore {

  @JsonProperty("podName")
  @JsonPropertyDescription("Pod of the failed store.")
  private String podName;

  @JsonProperty("storeID")
  @JsonPropertyDescription("Store ID.")
  private String storeID;

  @JsonProperty("pvcUIDSet")
  @JsonPropertyDescription("UIDs of the store's PVCs.")
  private Map<String, Map<String, String>> pvcUIDSet;

  @JsonProperty("storeDeleted")
  @JsonPropertyDescription("The store was deleted from PD.")
  private Boolean storeDeleted;

  @JsonProperty("hostDown")
  @JsonPropertyDescription("The store's node is down.")
  private Boolean hostDown;

  @JsonProperty("createdAt")
  @JsonPropertyDescription("When the failure was recorded (RFC 3339).")
  private String createdAt;

  public String getPodName() {
    return podName;
  }

  public void setPodName(String podName) {
    this.podName = podName;
  }

  public String getStoreID() {
    return storeID;
  }

  public void setStoreID(String storeID) {
    this.storeID = storeID;
  }

  public Map<String, Map<String, String>> getPvcUIDSet() {
    return pvcUIDSet;
  }

  public void setPvcUIDSet(Map<String, Map<String, String>> pvcUIDSet) {
    this.pvcUIDSet = pvcUIDSet;
  }

  public Boolean getStoreDeleted() {
    return storeDeleted;
  }

  public void setStoreDeleted(Boolean storeDeleted) {
    this.storeDeleted = storeDeleted;
  }

  public Boolean getHostDown() {
    return hostDown;
  }

  public void setHostDown(Boolean hostDown) {
    this.hostDown = hostDown;
  }

  public String getCreatedAt() {
    return createdAt;
  }

  public void setCreatedAt(String createdAt) {
    this.createdAt = createdAt;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    FailureStore that = (FailureStore) o;
    return Objects.equals(podName, that.podName)
        && Objects.equals(storeID, that.storeID)
        && Objects.equals(pvcUIDSet, that.pvcUIDSet)
        && Objects.equals(storeDeleted, that.storeDeleted)
        && Objects.equals(hostDown, that.hostDown)
        && Objects.equals(createdAt, that.createdAt);
  }

  @Override
  public int hashCode() {
    return Objects.hash(podName, storeID, pvcUIDSet, storeDeleted, hostDown, createdAt);
  }
}
