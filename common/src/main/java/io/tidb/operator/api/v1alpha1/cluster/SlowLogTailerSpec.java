package io.tidb.operator.api.v1alpha1.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** The sidecar that tails the TiDB slow log. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode(callSuper = true)
public class SlowLogTailerSpec extends LogTailerSpec {

  @JsonProperty("image")
  @JsonPropertyDescription("Image of the sidecar; defaults to the helper image.")
  private String image;

  @JsonProperty("imagePullPolicy")
  @JsonPropertyDescription("Pull policy of the sidecar image.")
  @Pattern("^(Always|Never|IfNotPresent)?$")
  private String imagePullPolicy;
}
