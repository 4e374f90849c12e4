package io.tidb.operator.api.v1alpha1.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Min;
import io.fabric8.kubernetes.api.model.SecurityContext;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** A sidecar that tails a log file. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode(callSuper = true)
public class LogTailerSpec extends ContainerResources {

  @JsonProperty("securityContext")
  @JsonPropertyDescription("Security context of the sidecar.")
  private SecurityContext securityContext;

  @JsonProperty("useSidecar")
  @JsonPropertyDescription("Run the tailer as a native sidecar (init container with restartPolicy Always).")
  private Boolean useSidecar;

  @JsonProperty("sleepTimeSeconds")
  @JsonPropertyDescription("Seconds the tailer sleeps before exiting.")
  @Min(0)
  private Long sleepTimeSeconds;
}
