package io.tidb.operator.api.v1alpha1.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.Objects;

/** A TiDB member. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class TidbMember {

  @JsonProperty("name")
  @JsonPropertyDescription("Member name.")
  private String name;

  @JsonProperty("health")
  @JsonPropertyDescription("The member answers its status endpoint.")
  private Boolean health;

  @JsonProperty("lastTransitionTime")
  @JsonPropertyDescription("When health last changed (RFC 3339).")
  private String lastTransitionTime;

  @JsonProperty("node")
  @JsonPropertyDescription("Node the member runs on.")
  private String node;

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

  public String getLastTransitionTime() {
    return lastTransitionTime;
  }

  public void setLastTransitionTime(String lastTransitionTime) {
    this.lastTransitionTime = lastTransitionTime;
  }

  public String getNode() {
    return node;
  }

  public void setNode(String node) {
    this.node = node;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    TidbMember that = (TidbMember) o;
    return Objects.equals(name, that.name)
        && Objects.equals(health, that.health)
        && Objects.equals(lastTransitionTime, that.lastTransitionTime)
        && Objects.equals(node, that.node);
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, health, lastTransitionTime, node);
  }
}
