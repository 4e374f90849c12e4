package io.tidb.operator.api.v1alpha1.shared;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import java.util.List;
import java.util.Map;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** A Kubernetes Service in front of a component. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode
public class ServiceSpec {

  @JsonProperty("type")
  @JsonPropertyDescription("Service type: ClusterIP, NodePort, LoadBalancer or ExternalName.")
  @Pattern("^(ClusterIP|NodePort|LoadBalancer|ExternalName)?$")
  private String type;

  @JsonProperty("annotations")
  @JsonPropertyDescription("Extra Service annotations.")
  private Map<String, String> annotations;

  @JsonProperty("labels")
  @JsonPropertyDescription("Extra Service labels.")
  private Map<String, String> labels;

  @JsonProperty("loadBalancerIP")
  @JsonPropertyDescription("Requested load balancer IP.")
  private String loadBalancerIP;

  @JsonProperty("clusterIP")
  @JsonPropertyDescription("Requested cluster IP.")
  private String clusterIP;

  @JsonProperty("portName")
  @JsonPropertyDescription("Name of the main port.")
  private String portName;

  @JsonProperty("port")
  @JsonPropertyDescription("Port number of the main port.")
  @Min(1)
  @Max(65535)
  private Integer port;

  @JsonProperty("loadBalancerSourceRanges")
  @JsonPropertyDescription("CIDRs allowed to reach a LoadBalancer Service.")
  private List<String> loadBalancerSourceRanges;

  @JsonProperty("loadBalancerClass")
  @JsonPropertyDescription("Load balancer implementation class.")
  private String loadBalancerClass;
}
