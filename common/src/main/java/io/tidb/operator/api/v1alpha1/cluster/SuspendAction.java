package io.tidb.operator.api.v1alpha1.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.Objects;

/** What to stop while a component is suspended. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class SuspendAction {

  @JsonProperty("suspendStatefulSet")
  @JsonPropertyDescription("Delete the StatefulSet (keeping PVCs) while suspended.")
  private Boolean suspendStatefulSet;

  public Boolean getSuspendStatefulSet() {
    return suspendStatefulSet;
  }

  public void setSuspendStatefulSet(Boolean suspendStatefulSet) {
    this.suspendStatefulSet = suspendStatefulSet;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    SuspendAction that = (SuspendAction) o;
    return Objects.equals(suspendStatefulSet, that.suspendStatefulSet);
  }

  @Override
  public int hashCode() {
    return Objects.hash(suspendStatefulSet);
  }
}
