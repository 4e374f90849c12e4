package io.tidb.operator.api.v1alpha1.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.Map;
import java.util.Objects;

/** Observed state of TiProxy. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class TiproxyStatus extends ComponentStatus {

  @JsonProperty("members")
  @JsonPropertyDescription("Members, by name.")
  private Map<String, TiproxyMember> members;

  public Map<String, TiproxyMember> getMembers() {
    return members;
  }

  public void setMembers(Map<String, TiproxyMember> members) {
    this.members = members;
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
    TiproxyStatus that = (TiproxyStatus) o;
    return Objects.equals(members, that.members);
  }

  @Override
  public int hashCode() {
    return Objects.hash(super.hashCode(), members);
  }
}
