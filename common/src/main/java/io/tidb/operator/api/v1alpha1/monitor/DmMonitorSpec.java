package io.tidb.operator.api.v1alpha1.monitor;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import io.tidb.operator.api.v1alpha1.shared.TidbClusterRef;
import java.util.List;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** DM clusters to monitor and their initializer. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode
public class DmMonitorSpec {

  @JsonProperty("clusters")
  @JsonPropertyDescription("The DMClusters to monitor.")
  @Required
  private List<TidbClusterRef> clusters;

  @JsonProperty("initializer")
  @JsonPropertyDescription("The DM dashboard and rules initializer.")
  @Required
  private InitializerSpec initializer;
}
