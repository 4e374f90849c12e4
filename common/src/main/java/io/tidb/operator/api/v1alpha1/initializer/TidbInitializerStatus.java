package io.tidb.operator.api.v1alpha1.initializer;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.batch.v1.UncountedTerminatedPods;
import java.util.List;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/**
 * Upstream's status: the initializer Job's status inline, plus {@code phase}. Added here: {@code
 * observedGeneration}, and conditions of the metav1 shape ({@code Valid}, {@code Initialized},
 * and the Job's own conditions mirrored).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode
public class TidbInitializerStatus {

  @JsonProperty("phase")
  @JsonPropertyDescription("Pending, Running, Completed or Failed.")
  private String phase;

  @JsonProperty("observedGeneration")
  @JsonPropertyDescription("The generation this status was computed from.")
  private Long observedGeneration;

  @JsonProperty("conditions")
  @JsonPropertyDescription(
      "Valid, Initialized (with the reason and message of the phase), and the Job's conditions.")
  private List<Condition> conditions;

  @JsonProperty("active")
  private Integer active;

  @JsonProperty("completedIndexes")
  private String completedIndexes;

  @JsonProperty("completionTime")
  private String completionTime;

  @JsonProperty("failed")
  private Integer failed;

  @JsonProperty("failedIndexes")
  private String failedIndexes;

  @JsonProperty("ready")
  private Integer ready;

  @JsonProperty("startTime")
  private String startTime;

  @JsonProperty("succeeded")
  private Integer succeeded;

  @JsonProperty("terminating")
  private Integer terminating;

  @JsonProperty("uncountedTerminatedPods")
  private UncountedTerminatedPods uncountedTerminatedPods;
}
