package io.tidb.operator.api.v1alpha1.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.List;
import java.util.Objects;

/** Observed state of Pump. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class PumpStatus extends ComponentStatus {

  @JsonProperty("members")
  @JsonPropertyDescription("Pump nodes.")
  private List<PumpMember> members;

  public List<PumpMember> getMembers() {
    return members;
  }

  public void setMembers(List<PumpMember> members) {
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
    PumpStatus that = (PumpStatus) o;
    return Objects.equals(members, that.members);
  }

  @Override
  public int hashCode() {
    return Objects.hash(super.hashCode(), members);
  }
}
