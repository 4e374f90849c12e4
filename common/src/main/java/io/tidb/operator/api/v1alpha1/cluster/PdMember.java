package io.tidb.operator.api.v1alpha1.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.Objects;

/** A PD member as PD reports it. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class PdMember {

  @JsonProperty("name")
  @JsonPropertyDescription("Member name.")
  private String name;

  @JsonProperty("id")
  @JsonPropertyDescription("Member ID.")
  private String id;

  @JsonProperty("clientURL")
  @JsonPropertyDescription("Client URL of the member.")
  private String clientURL;

  @JsonProperty("health")
  @JsonPropertyDescription("PD reports the member healthy.")
  private Boolean health;

  @JsonProperty("lastTransitionTime")
  @JsonPropertyDescription("When health last changed (RFC 3339).")
  private String lastTransitionTime;

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }

  public String getId() {
    return id;
  }

  public void setId(String id) {
    this.id = id;
  }

  public String getClientURL() {
    return clientURL;
  }

  public void setClientURL(String clientURL) {
    this.clientURL = clientURL;
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

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    PdMember that = (PdMember) o;
    return Objects.equals(name, that.name)
        && Objects.equals(id, that.id)
        && Objects.equals(clientURL, that.clientURL)
        && Objects.equals(health, that.health)
        && Objects.equals(lastTransitionTime, that.lastTransitionTime);
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, id, clientURL, health, lastTransitionTime);
  }
}
