package io.tidb.operator.api.v1alpha1.monitor;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.kubernetes.api.model.SecretKeySelector;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.tidb.operator.api.v1alpha1.shared.ServiceSpec;
import java.util.List;
import java.util.Map;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** The Grafana container, its Service, Ingress and admin credentials. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode(callSuper = true)
public class GrafanaSpec extends MonitorContainer {

  @JsonProperty("logLevel")
  @JsonPropertyDescription("Grafana log level.")
  private String logLevel;

  @JsonProperty("service")
  @JsonPropertyDescription("The Grafana Service.")
  private ServiceSpec service;

  @JsonProperty("usernameSecret")
  @JsonPropertyDescription("Secret key holding the admin user; overrides username.")
  private SecretKeySelector usernameSecret;

  @JsonProperty("passwordSecret")
  @JsonPropertyDescription("Secret key holding the admin password; overrides password.")
  private SecretKeySelector passwordSecret;

  @JsonProperty("username")
  @JsonPropertyDescription("Deprecated: admin user, stored in the <name>-monitor Secret. Use usernameSecret.")
  private String username;

  @JsonProperty("password")
  @JsonPropertyDescription("Deprecated: admin password, stored in the <name>-monitor Secret. Use passwordSecret.")
  private String password;

  @JsonProperty("envs")
  @JsonPropertyDescription("Extra environment variables of the Grafana container.")
  private Map<String, String> envs;

  @JsonProperty("ingress")
  @JsonPropertyDescription("An Ingress in front of the Grafana Service.")
  private IngressSpec ingress;

  @JsonProperty("additionalVolumeMounts")
  @JsonPropertyDescription("Extra volume mounts of the Grafana container.")
  private List<VolumeMount> additionalVolumeMounts;
}
