package io.tidb.operator.api.v1alpha1.monitor;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.List;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** External Prometheus configuration and rules, and extra command options. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode
public class PrometheusConfiguration {

  @JsonProperty("configMapRef")
  @JsonPropertyDescription("A ConfigMap whose key prometheus-config replaces the generated prometheus.yml.")
  private ConfigMapRef configMapRef;

  @JsonProperty("commandOptions")
  @JsonPropertyDescription("Extra Prometheus command-line options.")
  private List<String> commandOptions;

  @JsonProperty("ruleConfigRef")
  @JsonPropertyDescription("A ConfigMap of alert rules (*.rules.yml) used instead of the initializer rules.")
  private ConfigMapRef ruleConfigRef;
}
