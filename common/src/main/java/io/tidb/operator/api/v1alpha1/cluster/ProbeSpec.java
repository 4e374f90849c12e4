package io.tidb.operator.api.v1alpha1.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** A simple probe: tcp on the main port or a built-in command. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode
public class ProbeSpec {

  @JsonProperty("type")
  @JsonPropertyDescription("Probe type: tcp or command.")
  @Pattern("^(tcp|command)?$")
  private String type;

  @JsonProperty("initialDelaySeconds")
  @JsonPropertyDescription("Seconds before the first probe.")
  @Min(0)
  private Integer initialDelaySeconds;

  @JsonProperty("periodSeconds")
  @JsonPropertyDescription("Seconds between probes.")
  @Min(1)
  private Integer periodSeconds;
}
