package io.tidb.operator.api.v1alpha1.backup;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** Progress of one step of BR, as upstream's Progress. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode
public class Progress {

  @JsonProperty("step")
  @JsonPropertyDescription("The step.")
  private String step;

  @JsonProperty("progress")
  @JsonPropertyDescription("Percent done.")
  private Double progress;

  @JsonProperty("lastTransitionTime")
  @JsonPropertyDescription("When it was last updated.")
  private String lastTransitionTime;
}
