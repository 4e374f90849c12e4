package io.tidb.operator.api.v1alpha1.monitor;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** A ConfigMap by name and namespace. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode
public class ConfigMapRef {

  @JsonProperty("name")
  @JsonPropertyDescription("Name of the ConfigMap.")
  private String name;

  @JsonProperty("namespace")
  @JsonPropertyDescription("Namespace of the ConfigMap; the monitor namespace when empty.")
  private String namespace;
}
