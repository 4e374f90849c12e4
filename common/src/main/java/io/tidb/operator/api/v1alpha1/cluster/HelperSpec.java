package io.tidb.operator.api.v1alpha1.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** The helper image used for small utility containers. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode
public class HelperSpec {

  @JsonProperty("image")
  @JsonPropertyDescription("Helper image; default busybox:1.26.2.")
  private String image;

  @JsonProperty("imagePullPolicy")
  @JsonPropertyDescription("Pull policy of the helper image.")
  @Pattern("^(Always|Never|IfNotPresent)?$")
  private String imagePullPolicy;
}
