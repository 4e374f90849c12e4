package io.tidb.operator.api.v1alpha1.monitor;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.tidb.operator.api.v1alpha1.shared.ServiceSpec;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** The rules reloader container and its Service. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode(callSuper = true)
public class ReloaderSpec extends MonitorContainer {

  @JsonProperty("service")
  @JsonPropertyDescription("The reloader Service.")
  private ServiceSpec service;
}
