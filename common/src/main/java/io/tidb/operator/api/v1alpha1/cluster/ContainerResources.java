package io.tidb.operator.api.v1alpha1.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceClaim;
import java.util.List;
import java.util.Map;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** Compute resources inlined into an object, as Kubernetes' ResourceRequirements. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode
public abstract class ContainerResources {

  @JsonProperty("requests")
  @JsonPropertyDescription("Minimum compute resources (cpu, memory) for the main container; `storage` sizes the data volume.")
  private Map<String, Quantity> requests;

  @JsonProperty("limits")
  @JsonPropertyDescription("Maximum compute resources for the main container.")
  private Map<String, Quantity> limits;

  @JsonProperty("claims")
  @JsonPropertyDescription("Dynamic resource claims used by the main container.")
  private List<ResourceClaim> claims;
}
