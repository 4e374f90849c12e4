package io.tidb.operator.api.v1alpha1.monitor;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.kubernetes.api.model.SecretKeySelector;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** Basic authentication from Secret keys. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode
public class BasicAuth {

  @JsonProperty("username")
  @JsonPropertyDescription("Secret key of the user name.")
  private SecretKeySelector username;

  @JsonProperty("password")
  @JsonPropertyDescription("Secret key of the password.")
  private SecretKeySelector password;
}
