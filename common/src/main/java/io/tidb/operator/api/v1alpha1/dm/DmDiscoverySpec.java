package io.tidb.operator.api.v1alpha1.dm;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.tidb.operator.api.v1alpha1.cluster.DiscoverySpec;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** The discovery service dm-master members ask how to bootstrap or join. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode(callSuper = true)
public class DmDiscoverySpec extends DiscoverySpec {

  @JsonProperty("address")
  @JsonPropertyDescription("Deprecated: address of an existing TiDB discovery service to use instead of the DM cluster's own.")
  private String address;
}
