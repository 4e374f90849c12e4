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
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** Spread pods over one topology key (matchLabels default to the component's labels). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode
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
}
