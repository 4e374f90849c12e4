package io.tidb.operator.api.v1alpha1.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** Configuration files of TiFlash. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode
public class TiflashConfig {

  @JsonProperty("config")
  @JsonPropertyDescription("The TiFlash configuration file (map or TOML string).")
  @SchemaFrom(type = JsonNode.class)
  private ComponentConfig config;

  @JsonProperty("proxy")
  @JsonPropertyDescription("The TiFlash proxy configuration file (map or TOML string).")
  @SchemaFrom(type = JsonNode.class)
  private ComponentConfig proxy;
}
