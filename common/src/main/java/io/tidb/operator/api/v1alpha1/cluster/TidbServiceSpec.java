package io.tidb.operator.api.v1alpha1.cluster;

import io.tidb.operator.api.v1alpha1.shared.ServiceSpec;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.kubernetes.api.model.ServicePort;
import java.util.List;
import java.util.Objects;

/** The MySQL Service of TiDB. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
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

  public String getExternalTrafficPolicy() {
    return externalTrafficPolicy;
  }

  public void setExternalTrafficPolicy(String externalTrafficPolicy) {
    this.externalTrafficPolicy = externalTrafficPolicy;
  }

  public Boolean getExposeStatus() {
    return exposeStatus;
  }

  public void setExposeStatus(Boolean exposeStatus) {
    this.exposeStatus = exposeStatus;
  }

  public Integer getMysqlNodePort() {
    return mysqlNodePort;
  }

  public void setMysqlNodePort(Integer mysqlNodePort) {
    this.mysqlNodePort = mysqlNodePort;
  }

  public Integer getStatusNodePort() {
    return statusNodePort;
  }

  public void setStatusNodePort(Integer statusNodePort) {
    this.statusNodePort = statusNodePort;
  }

  public List<ServicePort> getAdditionalPorts() {
    return additionalPorts;
  }

  public void setAdditionalPorts(List<ServicePort> additionalPorts) {
    this.additionalPorts = additionalPorts;
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
    TidbServiceSpec that = (TidbServiceSpec) o;
    return Objects.equals(externalTrafficPolicy, that.externalTrafficPolicy)
        && Objects.equals(exposeStatus, that.exposeStatus)
        && Objects.equals(mysqlNodePort, that.mysqlNodePort)
        && Objects.equals(statusNodePort, that.statusNodePort)
        && Objects.equals(additionalPorts, that.additionalPorts);
  }

  @Override
  public int hashCode() {
    return Objects.hash(super.hashCode(), externalTrafficPolicy, exposeStatus, mysqlNodePort, statusNodePort, additionalPorts);
  }
}
