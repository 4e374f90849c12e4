package io.tidb.operator.api.v1alpha1.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;
import java.util.List;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** A startup probe that runs a custom binary. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode
public class CustomizedStartupProbe {

  @JsonProperty("image")
  @JsonPropertyDescription("Image holding the probe binary.")
  @Required
  private String image;

  @JsonProperty("binaryName")
  @JsonPropertyDescription("Name of the probe binary.")
  @Required
  private String binaryName;

  @JsonProperty("args")
  @JsonPropertyDescription("Arguments of the probe binary.")
  private List<String> args;

  @JsonProperty("initialDelaySeconds")
  @JsonPropertyDescription("Seconds before the first probe.")
  @Min(0)
  private Integer initialDelaySeconds;

  @JsonProperty("periodSeconds")
  @JsonPropertyDescription("Seconds between probes.")
  @Min(1)
  private Integer periodSeconds;

  @JsonProperty("timeoutSeconds")
  @JsonPropertyDescription("Seconds before a probe times out.")
  @Min(1)
  private Integer timeoutSeconds;

  @JsonProperty("successThreshold")
  @JsonPropertyDescription("Successes needed to pass.")
  @Min(1)
  private Integer successThreshold;

  @JsonProperty("failureThreshold")
  @JsonPropertyDescription("Failures needed to fail.")
  @Min(1)
  private Integer failureThreshold;
}
