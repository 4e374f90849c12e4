package io.tidb.operator.api.v1alpha1.monitor;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.kubernetes.api.model.ConfigMapKeySelector;
import io.fabric8.kubernetes.api.model.SecretKeySelector;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** Data from a Secret key or a ConfigMap key. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode
public class SecretOrConfigMap {

  @JsonProperty("secret")
  @JsonPropertyDescription("A Secret key.")
  private SecretKeySelector secret;

  @JsonProperty("configMap")
  @JsonPropertyDescription("A ConfigMap key.")
  private ConfigMapKeySelector configMap;
}
