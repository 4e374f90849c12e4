package io.tidb.operator.api.v1alpha1.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** TLS between the cluster's components. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode
public class TlsCluster {

  @JsonProperty("enabled")
  @JsonPropertyDescription("Use mutual TLS between components (secrets <cluster>-<component>-cluster-secret).")
  private Boolean enabled;

  @JsonProperty("enableDiscoveryMTLS")
  @JsonPropertyDescription("Also use mutual TLS for the discovery service.")
  private Boolean enableDiscoveryMTLS;
}
