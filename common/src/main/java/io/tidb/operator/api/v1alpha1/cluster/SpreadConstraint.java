package io.tidb.operator.api.v1alpha1.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import java.util.Map;
import java.util.Objects;

/** Spread pods over one topology key (matchLabels default to the component's labels). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class SpreadConstraint {

  @JsonProperty("topologyKey")
  @JsonPropertyDescription("Node label key that defines the topology domain.")
  @Required
  private String topologyKey;

  @JsonProperty("maxSkew")
  @JsonPropertyDescription("Largest allowed difference of pod counts between domains.")
  @Default("1")
  @Min(1)
  private Integer maxSkew;

  @JsonProperty("minDomains")
  @JsonPropertyDescription("Minimum number of eligible domains.")
  @Min(1)
  private Integer minDomains;

  @JsonProperty("nodeAffinityPolicy")
  @JsonPropertyDescription("Honor or Ignore node affinity when counting.")
  @Pattern("^(Honor|Ignore)?$")
  private String nodeAffinityPolicy;

  @JsonProperty("matchLabels")
  @JsonPropertyDescription("Extra labels selecting the pods that are counted.")
  private Map<String, String> matchLabels;

  public String getTopologyKey() {
    return topologyKey;
  }

  public void setTopologyKey(String topologyKey) {
    this.topologyKey = topologyKey;
  }

  public Integer getMaxSkew() {
    return maxSkew;
  }

  public void setMaxSkew(Integer maxSkew) {
    this.maxSkew = maxSkew;
  }

  public Integer getMinDomains() {
    return minDomains;
  }

  public void setMinDomains(Integer minDomains) {
    this.minDomains = minDomains;
  }

  public String getNodeAffinityPolicy() {
    return nodeAffinityPolicy;
  }

  public void setNodeAffinityPolicy(String nodeAffinityPolicy) {
    this.nodeAffinityPolicy = nodeAffinityPolicy;
  }

  public Map<String, String> getMatchLabels() {
    return matchLabels;
  }

  public void setMatchLabels(Map<String, String> matchLabels) {
    this.matchLabels = matchLabels;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    SpreadConstraint that = (SpreadConstraint) o;
    return Objects.equals(topologyKey, that.topologyKey)
        && Objects.equals(maxSkew, that.maxSkew)
        && Objects.equals(minDomains, that.minDomains)
        && Objects.equals(nodeAffinityPolicy, that.nodeAffinityPolicy)
        && Objects.equals(matchLabels, that.matchLabels);
  }

  @Override
  public int hashCode() {
    return Objects.hash(topologyKey, maxSkew, minDomains, nodeAffinityPolicy, matchLabels);
  }
}
