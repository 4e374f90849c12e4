package io.tidb.operator.api.v1alpha1.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.Objects;

/** A TiKV or TiFlash store as PD reports it. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class TikvStore {

  @JsonProperty("id")
  @JsonPropertyDescription("Store ID.")
  private String id;

  @JsonProperty("podName")
  @JsonPropertyDescription("Pod of the store.")
  private String podName;

  @JsonProperty("ip")
  @JsonPropertyDescription("Address of the store.")
  private String ip;

  @JsonProperty("leaderCount")
  @JsonPropertyDescription("Region leaders on the store.")
  private Integer leaderCount;

  @JsonProperty("state")
  @JsonPropertyDescription("Store state: Up, Down, Offline, Tombstone, Disconnected.")
  private String state;

  @JsonProperty("lastTransitionTime")
  @JsonPropertyDescription("When the state last changed (RFC 3339).")
  private String lastTransitionTime;

  @JsonProperty("leaderCountBeforeUpgrade")
  @JsonPropertyDescription("Leader count before the store was restarted for an upgrade.")
  private Integer leaderCountBeforeUpgrade;

  public String getId() {
    return id;
  }

  public void setId(String id) {
    this.id = id;
  }

  public String getPodName() {
    return podName;
  }

  public void setPodName(String podName) {
    this.podName = podName;
  }

  public String getIp() {
    return ip;
  }

  public void setIp(String ip) {
    this.ip = ip;
  }

  public Integer getLeaderCount() {
    return leaderCount;
  }

  public void setLeaderCount(Integer leaderCount) {
    this.leaderCount = leaderCount;
  }

  public String getState() {
    return state;
  }

  public void setState(String state) {
    this.state = state;
  }

  public String getLastTransitionTime() {
    return lastTransitionTime;
  }

  public void setLastTransitionTime(String lastTransitionTime) {
    this.lastTransitionTime = lastTransitionTime;
  }

  public Integer getLeaderCountBeforeUpgrade() {
    return leaderCountBeforeUpgrade;
  }

  public void setLeaderCountBeforeUpgrade(Integer leaderCountBeforeUpgrade) {
    this.leaderCountBeforeUpgrade = leaderCountBeforeUpgrade;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    TikvStore that = (TikvStore) o;
    return Objects.equals(id, that.id)
        && Objects.equals(podName, that.podName)
        && Objects.equals(ip, that.ip)
        && Objects.equals(leaderCount, that.leaderCount)
        && Objects.equals(state, that.state)
        && Objects.equals(lastTransitionTime, that.lastTransitionTime)
        && Objects.equals(leaderCountBeforeUpgrade, that.leaderCountBeforeUpgrade);
  }

  @Override
  public int hashCode() {
    return Objects.hash(id, podName, ip, leaderCount, state, lastTransitionTime, leaderCountBeforeUpgrade);
  }
}
