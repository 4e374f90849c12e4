package io.tidb.operator.api.v1alpha1.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.Objects;

/** Leader eviction of one TiKV pod. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class EvictLeaderStatus {

  @JsonProperty("podCreateTime")
  @JsonPropertyDescription("Creation time of the pod (RFC 3339).")
  private String podCreateTime;

  @JsonProperty("beginTime")
  @JsonPropertyDescription("When eviction began (RFC 3339).")
  private String beginTime;

  @JsonProperty("value")
  @JsonPropertyDescription("Value of the eviction annotation.")
  private String value;

  public String getPodCreateTime() {
    return podCreateTime;
  }

  public void setPodCreateTime(String podCreateTime) {
    this.podCreateTime = podCreateTime;
  }

  public String getBeginTime() {
    return beginTime;
  }

  public void setBeginTime(String beginTime) {
    this.beginTime = beginTime;
  }

  public String getValue() {
    return value;
  }

  public void setValue(String value) {
    this.value = value;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    EvictLeaderStatus that = (EvictLeaderStatus) o;
    return Objects.equals(podCreateTime, that.podCreateTime)
        && Objects.equals(beginTime, that.beginTime)
        && Objects.equals(value, that.value);
  }

  @Override
  public int hashCode() {
    return Objects.hash(podCreateTime, beginTime, value);
  }
}
