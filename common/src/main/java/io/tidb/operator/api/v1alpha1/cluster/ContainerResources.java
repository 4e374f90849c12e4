package io.tidb.operator.api.v1alpha1.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceClaim;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** Compute resources inlined into an object, as Kubernetes' ResourceRequirements. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
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

  public Map<String, Quantity> getRequests() {
    return requests;
  }

  public void setRequests(Map<String, Quantity> requests) {
    this.requests = requests;
  }

  public Map<String, Quantity> getLimits() {
    return limits;
  }

  public void setLimits(Map<String, Quantity> limits) {
    this.limits = limits;
  }

  public List<ResourceClaim> getClaims() {
    return claims;
  }

  public void setClaims(List<ResourceClaim> claims) {
    this.claims = claims;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    ContainerResources that = (ContainerResources) o;
    return Objects.equals(requests, that.requests)
        && Objects.equals(limits, that.limits)
        && Objects.equals(claims, that.claims);
  }

  @Override
  public int hashCode() {
    return Objects.hash(requests, limits, claims);
  }
}
