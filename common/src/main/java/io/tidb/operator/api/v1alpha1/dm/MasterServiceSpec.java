package io.tidb.operator.api.v1alpha1.dm;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.tidb.operator.api.v1alpha1.shared.ServiceSpec;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** The dm-master client Service. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode(callSuper = true)
public class MasterServiceSpec extends ServiceSpec {

  @JsonProperty("externalTrafficPolicy")
  @JsonPropertyDescription("External traffic policy of the Service: Cluster or Local.")
  @Pattern("^(Cluster|Local)?$")
  private String externalTrafficPolicy;

  @JsonProperty("masterNodePort")
  @JsonPropertyDescription("Node port of the dm-master client port when the type is NodePort or LoadBalancer.")
  @Min(0)
  @Max(65535)
  private Integer masterNodePort;
}
