package io.tidb.operator.api.v1alpha1.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.Objects;

/** TLS between the cluster's components. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class TlsCluster {

  @JsonProperty("enabled")
  @JsonPropertyDescription("Use mutual TLS between components (secrets <cluster>-<component>-cluster-secret).")
  private Boolean enabled;

  @JsonProperty("enableDiscoveryMTLS")
  @JsonPropertyDescription("Also use mutual TLS for the discovery service.")
  private Boolean enableDiscoveryMTLS;

  public Boolean getEnabled() {
    return enabled;
  }

  public void setEnabled(Boolean enabled) {
    this.enabled = enabled;
  }

  public Boolean getEnableDiscoveryMTLS() {
    return enableDiscoveryMTLS;
  }

  public void setEnableDiscoveryMTLS(Boolean enableDiscoveryMTLS) {
    this.enableDiscoveryMTLS = enableDiscoveryMTLS;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    TlsCluster that = (TlsCluster) o;
    return Objects.equals(enabled, that.enabled)
        && Objects.equals(enableDiscoveryMTLS, that.enableDiscoveryMTLS);
  }

  @Override
  public int hashCode() {
    return Objects.hash(enabled, enableDiscoveryMTLS);
  }
}
