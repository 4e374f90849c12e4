package io.tidb.operator.api.v1alpha1.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.Objects;

/** Failover behaviour of a store component. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class Failover {

  @JsonProperty("recoverByUID")
  @JsonPropertyDescription("Set to status.failoverUID to remove the failover members once.")
  private String recoverByUID;

  public String getRecoverByUID() {
    return recoverByUID;
  }

  public void setRecoverByUID(String recoverByUID) {
    this.recoverByUID = recoverByUID;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    Failover that = (Failover) o;
    return Objects.equals(recoverByUID, that.recoverByUID);
  }

  @Override
  public int hashCode() {
    return Objects.hash(recoverByUID);
  }
}
