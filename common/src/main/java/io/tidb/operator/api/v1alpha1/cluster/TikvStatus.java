package io.tidb.operator.api.v1alpha1.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.Map;
import java.util.Objects;

/** Observed state of TiKV. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class TikvStatus extends StoresStatus {

  @JsonProperty("evictLeader")
  @JsonPropertyDescription("Leader evictions in progress, by pod name.")
  private Map<String, EvictLeaderStatus> evictLeader;

  public Map<String, EvictLeaderStatus> getEvictLeader() {
    return evictLeader;
  }

  public void setEvictLeader(Map<String, EvictLeaderStatus> evictLeader) {
    this.evictLeader = evictLeader;
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
    TikvStatus that = (TikvStatus) o;
    return Objects.equals(evictLeader, that.evictLeader);
  }

  @Override
  public int hashCode() {
    return Objects.hash(super.hashCode(), evictLeader);
  }
}
