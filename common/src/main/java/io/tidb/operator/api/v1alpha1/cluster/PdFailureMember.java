package io.tidb.operator.api.v1alpha1.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.Map;
import java.util.Objects;

/** A PD member the operator failed over. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class PdFailureMember {

  @JsonProperty("podName")
  @JsonPropertyDescription("Pod of the failed member.")
  private String podName;

  @JsonProperty("memberID")
  @JsonPropertyDescription("PD member ID.")
  private String memberID;

  @JsonProperty("pvcUID")
  @JsonPropertyDescription("Deprecated: UID of the member's PVC.")
  private String pvcUID;

  @JsonProperty("pvcUIDSet")
  @JsonPropertyDescription("UIDs of the member's PVCs.")
  private Map<String, Map<String, String>> pvcUIDSet;

  @JsonProperty("memberDeleted")
  @JsonPropertyDescription("The member was deleted from PD.")
  private Boolean memberDeleted;

  @JsonProperty("hostDown")
  @JsonPropertyDescription("The member's node is down.")
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

  public String getMemberID() {
    return memberID;
  }

  public void setMemberID(String memberID) {
    this.memberID = memberID;
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

  public Boolean getMemberDeleted() {
    return memberDeleted;
  }

  public void setMemberDeleted(Boolean memberDeleted) {
    this.memberDeleted = memberDeleted;
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
    PdFailureMember that = (PdFailureMember) o;
    return Objects.equals(podName, that.podName)
        && Objects.equals(memberID, that.memberID)
        && Objects.equals(pvcUID, that.pvcUID)
        && Objects.equals(pvcUIDSet, that.pvcUIDSet)
        && Objects.equals(memberDeleted, that.memberDeleted)
        && Objects.equals(hostDown, that.hostDown)
        && Objects.equals(createdAt, that.createdAt);
  }

  @Override
  public int hashCode() {
    return Objects.hash(podName, memberID, pvcUID, pvcUIDSet, memberDeleted, hostDown, createdAt);
  }
}
