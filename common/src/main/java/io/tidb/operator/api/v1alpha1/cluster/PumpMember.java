package io.tidb.operator.api.v1alpha1.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.Objects;

/** A Pump node as it registers itself. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class PumpMember {

  @JsonProperty("nodeId")
  @JsonPropertyDescription("Node ID.")
  private String nodeId;

  @JsonProperty("host")
  @JsonPropertyDescription("Address of the node.")
  private String host;

  @JsonProperty("state")
  @JsonPropertyDescription("Node state.")
  private String state;

  public String getNodeId() {
    return nodeId;
  }

  public void setNodeId(String nodeId) {
    this.nodeId = nodeId;
  }

  public String getHost() {
    return host;
  }

  public void setHost(String host) {
    this.host = host;
  }

  public String getState() {
    return state;
  }

  public void setState(String state) {
    this.state = state;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    PumpMember that = (PumpMember) o;
    return Objects.equals(nodeId, that.nodeId)
        && Objects.equals(host, that.host)
        && Objects.equals(state, that.state);
  }

  @Override
  public int hashCode() {
    return Objects.hash(nodeId, host, state);
  }
}
