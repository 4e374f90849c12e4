package io.tidb.operator.api.v1alpha1.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.Objects;

/** The discovery service that tells starting members how to join. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class DiscoverySpec extends ComponentSpec {

  @JsonProperty("livenessProbe")
  @JsonPropertyDescription("Liveness probe of the discovery container.")
  private ProbeSpec livenessProbe;

  public ProbeSpec getLivenessProbe() {
    return livenessProbe;
  }

  public void setLivenessProbe(ProbeSpec livenessProbe) {
    this.livenessProbe = livenessProbe;
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
    DiscoverySpec that = (DiscoverySpec) o;
    return Objects.equals(livenessProbe, that.livenessProbe);
  }

  @Override
  public int hashCode() {
    return Objects.hash(super.hashCode(), livenessProbe);
  }
}
