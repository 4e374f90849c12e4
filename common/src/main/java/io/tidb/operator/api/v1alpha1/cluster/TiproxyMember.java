package io.tidb.operator.api.v1alpha1.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.Objects;

/** A TiProxy member. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class TiproxyMember {

  @JsonProperty("name")
  @JsonPropertyDescription("Member name.")
  private String name;

  @JsonProperty("health")
  @JsonPropertyDescription("The member is healthy.")
  private Boolean health;

  @JsonProperty("info")
  @JsonPropertyDescription("Member information.")
  private String info;

  @JsonProperty("lastTransitionTime")
  @JsonPropertyDescription("When health last changed (RFC 3339).")
  private String lastTransitionTime;

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }

  public Boolean getHealth() {
    return health;
  }

  public void setHealth(Boolean health) {
    this.health = health;
  }

  public String getInfo() {
    return info;
  }

  public void setInfo(String info) {
    this.info = info;
  }

  public String getLastTransitionTime() {
    return lastTransitionTime;
  }

  public void setLastTransitionTime(String lastTransitionTime) {
    this.lastTransitionTime = lastTransitionTime;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    TiproxyMember that = (TiproxyMember) o;
    return Objects.equals(name, that.name)
        && Objects.equals(health, that.health)
        && Objects.equals(info, that.info)
        && Objects.equals(lastTransitionTime, that.lastTransitionTime);
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, health, info, lastTransitionTime);
  }
}
