package io.tidb.operator.api.v1alpha1.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.kubernetes.api.model.SecurityContext;
import java.util.Objects;

/** Resources and security context of an init container. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class InitContainerSpec extends ContainerResources {

  @JsonProperty("securityContext")
  @JsonPropertyDescription("Security context of the init container.")
  private SecurityContext securityContext;

  public SecurityContext getSecurityContext() {
    return securityContext;
  }

  public void setSecurityContext(SecurityContext securityContext) {
    this.securityContext = securityContext;
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
    InitContainerSpec that = (InitContainerSpec) o;
    return Objects.equals(securityContext, that.securityContext);
  }

  @Override
  public int hashCode() {
    return Objects.hash(super.hashCode(), securityContext);
  }
}
