package io.tidb.operator.api.v1alpha1.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.Map;
import java.util.Objects;

/** Observed state of TiDB. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class TidbStatus extends ComponentStatus {

  @JsonProperty("members")
  @JsonPropertyDescription("Members, by name.")
  private Map<String, TidbMember> members;

  @JsonProperty("failureMembers")
  @JsonPropertyDescription("Failed-over members, by pod name.")
  private Map<String, TidbFailureMember> failureMembers;

  @JsonProperty("passwordInitialized")
  @JsonPropertyDescription("The root password was initialised.")
  private Boolean passwordInitialized;

  @JsonProperty("resignDDLOwnerRetryCount")
  @JsonPropertyDescription("Attempts to resign the DDL owner during an upgrade.")
  private Integer resignDDLOwnerRetryCount;

  public Map<String, TidbMember> getMembers() {
    return members;
  }

  public void setMembers(Map<String, TidbMember> members) {
    this.members = members;
  }

  public Map<String, TidbFailureMember> getFailureMembers() {
    return failureMembers;
  }

  public void setFailureMembers(Map<String, TidbFailureMember> failureMembers) {
    this.failureMembers = failureMembers;
  }

  public Boolean getPasswordInitialized() {
    return passwordInitialized;
  }

  public void setPasswordInitialized(Boolean passwordInitialized) {
    this.passwordInitialized = passwordInitialized;
  }

  public Integer getResignDDLOwnerRetryCount() {
    return resignDDLOwnerRetryCount;
  }

  public void setResignDDLOwnerRetryCount(Integer resignDDLOwnerRetryCount) {
    this.resignDDLOwnerRetryCount = resignDDLOwnerRetryCount;
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
    TidbStatus that = (TidbStatus) o;
    return Objects.equals(members, that.members)
        && Objects.equals(failureMembers, that.failureMembers)
        && Objects.equals(passwordInitialized, that.passwordInitialized)
        && Objects.equals(resignDDLOwnerRetryCount, that.resignDDLOwnerRetryCount);
  }

  @Override
  public int hashCode() {
    return Objects.hash(super.hashCode(), members, failureMembers, passwordInitialized, resignDDLOwnerRetryCount);
  }
}
