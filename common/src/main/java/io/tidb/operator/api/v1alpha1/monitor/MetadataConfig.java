package io.tidb.operator.api.v1alpha1.monitor;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** Metric metadata sent to a remote_write endpoint. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode
public class MetadataConfig {

  @JsonProperty("send")
  @JsonPropertyDescription("Whether metadata is sent.")
  private Boolean send;

  @JsonProperty("sendInterval")
  @JsonPropertyDescription("How often metadata is sent, e.g. 1m.")
  private String sendInterval;
}
