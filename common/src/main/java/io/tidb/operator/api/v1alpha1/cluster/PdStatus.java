package io.tidb.operator.api.v1alpha1.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.Map;
import java.util.Objects;

/** Observed state of PD. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class PdStatus extends ComponentStatus {

  @JsonProperty("members")
  @JsonPropertyDescription("Members of this TidbCluster, by name.")
  private Map<String, PdMember> members;

  @JsonProperty("peerMembers")
  @JsonPropertyDescription("Members of other TidbClusters in the same PD cluster, by name.")
  private Map<String, PdMember> peerMembers;

  @JsonProperty("leader")
  @JsonPropertyDescription("The PD leader.")
  private PdMember leader;

  @JsonProperty("failureMembers")
  @JsonPropertyDescription("Failed-over members, by pod name.")
  private Map<String, PdFailureMember> failureMembers;

  @JsonProperty("unjoinedMembers")
  @JsonPropertyDescription("Pods whose member has not joined, by pod name.")
  private Map<String, UnjoinedMember> unjoinedMembers;

  public Map<String, PdMember> getMembers() {
    return members;
  }

  public void setMembers(Map<String, PdMember> members) {
    this.members = members;
  }

  public Map<String, PdMember> getPeerMembers() {
    return peerMembers;
  }

  public void setPeerMembers(Map<String, PdMember> peerMembers) {
    this.peerMembers = peerMembers;
  }

  public PdMember getLeader() {
    return leader;
  }

  public void setLeader(PdMember leader) {
    this.leader = leader;
  }

  public Map<String, PdFailureMember> getFailureMembers() {
    return failureMembers;
  }

  public void setFailureMembers(Map<String, PdFailureMember> failureMembers) {
    this.failureMembers = failureMembers;
  }

  public Map<String, UnjoinedMember> getUnjoinedMembers() {
    return unjoinedMembers;
  }

  public void setUnjoinedMembers(Map<String, UnjoinedMember> unjoinedMembers) {
    this.unjoinedMembers = unjoinedMembers;
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
    PdStatus that = (PdStatus) o;
    return Objects.equals(members, that.members)
        && Objects.equals(peerMembers, that.peerMembers)
        && Objects.equals(leader, that.leader)
        && Objects.equals(failureMembers, that.failureMembers)
        && Objects.equals(unjoinedMembers, that.unjoinedMembers);
  }

  @Override
  public int hashCode() {
    return Objects.hash(super.hashCode(), members, peerMembers, leader, failureMembers, unjoinedMembers);
  }
}
