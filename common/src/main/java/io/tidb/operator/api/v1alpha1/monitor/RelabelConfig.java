package io.tidb.operator.api.v1alpha1.monitor;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.List;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** A Prometheus relabeling rule. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode
public class RelabelConfig {

  @JsonProperty("sourceLabels")
  @JsonPropertyDescription("Source labels.")
  private List<String> sourceLabels;

  @JsonProperty("separator")
  @JsonPropertyDescription("Separator of the concatenated source labels.")
  private String separator;

  @JsonProperty("regex")
  @JsonPropertyDescription("Regular expression the value is matched against.")
  private String regex;

  @JsonProperty("modulus")
  @JsonPropertyDescription("Modulus of the hash of the source labels.")
  private Long modulus;

  @JsonProperty("targetLabel")
  @JsonPropertyDescription("Label written by replace actions.")
  private String targetLabel;

  @JsonProperty("replacement")
  @JsonPropertyDescription("Replacement value.")
  private String replacement;

  @JsonProperty("action")
  @JsonPropertyDescription("Action: replace, keep, drop, hashmod, labelmap, labeldrop, labelkeep.")
  private String action;
}
