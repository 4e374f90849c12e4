package io.tidb.operator.api.v1alpha1.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.tidb.operator.api.v1alpha1.shared.ServiceSpec;
import java.util.List;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** The MySQL Service of TiDB. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode(callSuper = true)
public class TidbServiceSpec extends ServiceSpec {

  @JsonProperty("externalTrafficPolicy")
  @JsonPropertyDescription("External traffic policy: Cluster or Local.")
  @Pattern("^(Cluster|Local)?$")
  private String externalTrafficPolicy;

  @JsonProperty("exposeStatus")
  @JsonPropertyDescription("Also expose the status port (10080).")
  private Boolean exposeStatus;

  @JsonProperty("mysqlNodePort")
  @JsonPropertyDescription("Node port of the MySQL port.")
  @Min(0)
  @Max(65535)
  private Integer mysqlNodePort;

  @JsonProperty("statusNodePort")
  @JsonPropertyDescription("Node port of the status port.")
  @Min(0)
  @Max(65535)
  private Integer statusNodePort;

  @JsonProperty("additionalPorts")
  @JsonPropertyDescription("Extra Service ports.")
  private List<ServicePort> additionalPorts;
}
