package io.tidb.operator.api.v1alpha1.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import java.util.Objects;

/** Configuration files of TiFlash. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class TiflashConfig {

  @JsonProperty("config")
  @JsonPropertyDescription("The TiFlash configuration file (map or TOML string).")
  @SchemaFrom(type = JsonNode.class)
  private ComponentConfig config;

  @JsonProperty("proxy")
  @JsonPropertyDescription("The TiFlash proxy configuration file (map or TOML string).")
  @SchemaFrom(type = JsonNode.class)
  private ComponentConfig proxy;

  public ComponentConfig getConfig() {
    return config;
  }

  public void setConfig(ComponentConfig config) {
    this.config = config;
  }

  public ComponentConfig getProxy() {
    return proxy;
  }

  public void setProxy(ComponentConfig proxy) {
    this.proxy = proxy;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    TiflashConfig that = (TiflashConfig) o;
    return Objects.equals(config, that.config)
        && Objects.equals(proxy, that.proxy);
  }

  @Override
  public int hashCode() {
    return Objects.hash(config, proxy);
  }
}
