package io.tidb.operator.api.v1alpha1.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.Map;
import java.util.Objects;

/** A PD pod whose member has not joined the cluster. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class UnjoinedMember {

  @JsonProperty("podName")
  @JsonPropertyDescription("Pod name.")
  private String podName;

  @JsonProperty("pvcUID")
  @JsonPropertyDescription("Deprecated: UID of the pod's PVC.")
  private String pvcUID;

  @JsonProperty("pvcUIDSet")
  @JsonPropertyDescription("UIDs of the pod's PVCs.")
  private Map<String, Map<String, String>> pvcUIDSet;

  @JsonProperty("createdAt")
  @JsonPropertyDescription("When it was first seen (RFC 3339).")
  private String createdAt;

  public String getPodName() {
    return podName;
  }

  public void setPodName(String podName) {
    this.podName = podName;
  }

  public String getPvcUID() {
    return pvcUID;
  }

  public void setPvcUID(String pvcUID) {
    this.pvcUID = pvcUID;
  }

  public Map<String, Map<String, String>> getPvcUIDSet() {
    return pvcUIDSet;
  }

  public void setPvcUIDSet(Map<String, Map<String, String>> pvcUIDSet) {
    this.pvcUIDSet = pvcUIDSet;
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
    UnjoinedMember that = (UnjoinedMember) o;
    return Objects.equals(podName, that.podName)
        && Objects.equals(pvcUID, that.pvcUID)
        && Objects.equals(pvcUIDSet, that.pvcUIDSet)
        && Objects.equals(createdAt, that.createdAt);
  }

  @Override
  public int hashCode() {
    return Objects.hash(podName, pvcUID, pvcUIDSet, createdAt);
  }
}
