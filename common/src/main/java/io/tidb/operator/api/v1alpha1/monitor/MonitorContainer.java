package io.tidb.operator.api.v1alpha1.monitor;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.tidb.operator.api.v1alpha1.cluster.ContainerResources;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** Image and resources of one container of the monitor pod (upstream MonitorContainer). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode(callSuper = true)
public abstract class MonitorContainer extends ContainerResources {

  @JsonProperty("baseImage")
  @JsonPropertyDescription("Image name without tag.")
  private String baseImage;

  @JsonProperty("version")
  @JsonPropertyDescription("Image tag.")
  private String version;

  @JsonProperty("imagePullPolicy")
  @JsonPropertyDescription("Image pull policy of this container; overrides spec.imagePullPolicy.")
  @Pattern("^(Always|Never|IfNotPresent)?$")
  private String imagePullPolicy;

  @JsonProperty("securityContext")
  @JsonPropertyDescription("Security context of this container.")
  private SecurityContext securityContext;
}
