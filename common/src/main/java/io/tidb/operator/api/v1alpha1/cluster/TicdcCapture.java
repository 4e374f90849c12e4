package io.tidb.operator.api.v1alpha1.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** A TiCDC capture. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode
public class TicdcCapture {

  @JsonProperty("podName")
  @JsonPropertyDescription("Pod of the capture.")
  private String podName;

  @JsonProperty("id")
  @JsonPropertyDescription("Capture ID.")
  private String id;

  @JsonProperty("version")
  @JsonPropertyDescription("TiCDC version.")
  private String version;

  @JsonProperty("isOwner")
  @JsonPropertyDescription("The capture is the owner.")
  private Boolean isOwner;

  @JsonProperty("ready")
  @JsonPropertyDescription("The capture is ready.")
  private Boolean ready;
}
