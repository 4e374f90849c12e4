package io.tidb.operator.api.v1alpha1.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Min;
import io.fabric8.kubernetes.api.model.SecurityContext;
import java.util.Objects;

/** A sidecar that tails a log file. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
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

  public SecurityContext getSecurityContext() {
    return securityContext;
  }

  public void setSecurityContext(SecurityContext securityContext) {
    this.securityContext = securityContext;
  }

  public Boolean getUseSidecar() {
    return useSidecar;
  }

  public void setUseSidecar(Boolean useSidecar) {
    this.useSidecar = useSidecar;
  }

  public Long getSleepTimeSeconds() {
    return sleepTimeSeconds;
  }

  public void setSleepTimeSeconds(Long sleepTimeSeconds) {
    this.sleepTimeSeconds = sleepTimeSeconds;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    if (!super.equals(o)) {
      return false;
    }
    LogTailerSpec that = (LogTailerSpec) o;
    return Objects.equals(securityContext, that.securityContext)
        && Objects.equals(useSidecar, that.useSidecar)
        && Objects.equals(sleepTimeSeconds, that.sleepTimeSeconds);
  }

  @Override
  public int hashCode() {
    return Objects.hash(super.hashCode(), securityContext, useSidecar, sleepTimeSeconds);
  }
}
