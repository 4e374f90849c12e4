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
import java.util.Objects;

/** A Kubernetes Service in front of a component. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
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

  public String getType() {
    return type;
  }

  public void setType(String type) {
    this.type = type;
  }

  public Map<String, String> getAnnotations() {
    return annotations;
  }

  public void setAnnotations(Map<String, String> annotations) {
    this.annotations = annotations;
  }

  public Map<String, String> getLabels() {
    return labels;
  }

  public void setLabels(Map<String, String> labels) {
    this.labels = labels;
  }

  public String getLoadBalancerIP() {
    return loadBalancerIP;
  }

  public void setLoadBalancerIP(String loadBalancerIP) {
    this.loadBalancerIP = loadBalancerIP;
  }

  public String getClusterIP() {
    return clusterIP;
  }

  public void setClusterIP(String clusterIP) {
    this.clusterIP = clusterIP;
  }

  public String getPortName() {
    return portName;
  }

  public void setPortName(String portName) {
    this.portName = portName;
  }

  public Integer getPort() {
    return port;
  }

  public void setPort(Integer port) {
    this.port = port;
  }

  public List<String> getLoadBalancerSourceRanges() {
    return loadBalancerSourceRanges;
  }

  public void setLoadBalancerSourceRanges(List<String> loadBalancerSourceRanges) {
    this.loadBalancerSourceRanges = loadBalancerSourceRanges;
  }

  public String getLoadBalancerClass() {
    return loadBalancerClass;
  }

  public void setLoadBalancerClass(String loadBalancerClass) {
    this.loadBalancerClass = loadBalancerClass;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    ServiceSpec that = (ServiceSpec) o;
    return Objects.equals(type, that.type)
        && Objects.equals(annotations, that.annotations)
        && Objects.equals(labels, that.labels)
        && Objects.equals(loadBalancerIP, that.loadBalancerIP)
        && Objects.equals(clusterIP, that.clusterIP)
        && Objects.equals(portName, that.portName)
        && Objects.equals(port, that.port)
        && Objects.equals(loadBalancerSourceRanges, that.loadBalancerSourceRanges)
        && Objects.equals(loadBalancerClass, that.loadBalancerClass);
  }

  @Override
  public int hashCode() {
    return Objects.hash(type, annotations, labels, loadBalancerIP, clusterIP, portName, port, loadBalancerSourceRanges, loadBalancerClass);
  }
}
