package io.tidb.operator.api.v1alpha1.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import java.util.Objects;

/** A simple probe: tcp on the main port or a built-in command. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
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

  public String getType() {
    return type;
  }

  public void setType(String type) {
    this.type = type;
  }

  public Integer getInitialDelaySeconds() {
    return initialDelaySeconds;
  }

  public void setInitialDelaySeconds(Integer initialDelaySeconds) {
    this.initialDelaySeconds = initialDelaySeconds;
  }

  public Integer getPeriodSeconds() {
    return periodSeconds;
  }

  public void setPeriodSeconds(Integer periodSeconds) {
    this.periodSeconds = periodSeconds;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    ProbeSpec that = (ProbeSpec) o;
    return Objects.equals(type, that.type)
        && Objects.equals(initialDelaySeconds, that.initialDelaySeconds)
        && Objects.equals(periodSeconds, that.periodSeconds);
  }

  @Override
  public int hashCode() {
    return Objects.hash(type, initialDelaySeconds, periodSeconds);
  }
}
