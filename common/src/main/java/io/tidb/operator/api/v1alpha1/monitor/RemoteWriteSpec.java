package io.tidb.operator.api.v1alpha1.monitor;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import java.util.List;
import java.util.Map;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** One remote_write endpoint. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode
public class RemoteWriteSpec {

  @JsonProperty("url")
  @JsonPropertyDescription("URL of the endpoint.")
  @Required
  private String url;

  @JsonProperty("name")
  @JsonPropertyDescription("Name of the queue (Prometheus 2.25 and later).")
  private String name;

  @JsonProperty("remoteTimeout")
  @JsonPropertyDescription("Timeout of a request, e.g. 30s.")
  @Pattern("^\\d+[smhd]$")
  private String remoteTimeout;

  @JsonProperty("writeRelabelConfigs")
  @JsonPropertyDescription("Relabeling before samples are sent.")
  private List<RelabelConfig> writeRelabelConfigs;

  @JsonProperty("basicAuth")
  @JsonPropertyDescription("Basic authentication, from Secrets.")
  private BasicAuth basicAuth;

  @JsonProperty("bearerToken")
  @JsonPropertyDescription("Bearer token.")
  private String bearerToken;

  @JsonProperty("bearerTokenFile")
  @JsonPropertyDescription("File holding the bearer token.")
  private String bearerTokenFile;

  @JsonProperty("tlsConfig")
  @JsonPropertyDescription("TLS of the endpoint.")
  private TlsConfig tlsConfig;

  @JsonProperty("proxyUrl")
  @JsonPropertyDescription("Proxy URL.")
  private String proxyUrl;

  @JsonProperty("queueConfig")
  @JsonPropertyDescription("Queue tuning.")
  private QueueConfig queueConfig;

  @JsonProperty("metadataConfig")
  @JsonPropertyDescription("Metadata sending (Prometheus 2.23 and later).")
  private MetadataConfig metadataConfig;

  @JsonProperty("headers")
  @JsonPropertyDescription("Extra request headers (Prometheus 2.25 and later).")
  private Map<String, String> headers;
}
