package io.tidb.operator.api.v1alpha1.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.kubernetes.api.model.SecurityContext;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** Resources and security context of an init container. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode(callSuper = true)
public class InitContainerSpec extends ContainerResources {

  @JsonProperty("securityContext")
  @JsonPropertyDescription("Security context of the init container.")
  private SecurityContext securityContext;
}
