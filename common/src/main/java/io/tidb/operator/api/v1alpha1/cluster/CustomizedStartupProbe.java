package io.tidb.operator.api.v1alpha1.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;
import java.util.List;
import java.util.Objects;

/** A startup probe that runs a custom binary. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
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

  public String getImage() {
    return image;
  }

  public void setImage(String image) {
    this.image = image;
  }

  public String getBinaryName() {
    return binaryName;
  }

  public void setBinaryName(String binaryName) {
    this.binaryName = binaryName;
  }

  public List<String> getArgs() {
    return args;
  }

  public void setArgs(List<String> args) {
    this.args = args;
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

  public Integer getTimeoutSeconds() {
    return timeoutSeconds;
  }

  public void setTimeoutSeconds(Integer timeoutSeconds) {
    this.timeoutSeconds = timeoutSeconds;
  }

  public Integer getSuccessThreshold() {
    return successThreshold;
  }

  public void setSuccessThreshold(Integer successThreshold) {
    this.successThreshold = successThreshold;
  }

  public Integer getFailureThreshold() {
    return failureThreshold;
  }

  public void setFailureThreshold(Integer failureThreshold) {
    this.failureThreshold = failureThreshold;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    CustomizedStartupProbe that = (CustomizedStartupProbe) o;
    return Objects.equals(image, that.image)
        && Objects.equals(binaryName, that.binaryName)
        && Objects.equals(args, that.args)
        && Objects.equals(initialDelaySeconds, that.initialDelaySeconds)
        && Objects.equals(periodSeconds, that.periodSeconds)
        && Objects.equals(timeoutSeconds, that.timeoutSeconds)
        && Objects.equals(successThreshold, that.successThreshold)
        && Objects.equals(failureThreshold, that.failureThreshold);
  }

  @Override
  public int hashCode() {
    return Objects.hash(image, binaryName, args, initialDelaySeconds, periodSeconds, timeoutSeconds, successThreshold, failureThreshold);
  }
}
