package io.tidb.operator.api.v1alpha1.monitor;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.kubernetes.api.model.SecretKeySelector;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** TLS settings: files, or Secret and ConfigMap keys. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode
public class TlsConfig {

  @JsonProperty("ca")
  @JsonPropertyDescription("CA certificate.")
  private SecretOrConfigMap ca;

  @JsonProperty("cert")
  @JsonPropertyDescription("Client certificate.")
  private SecretOrConfigMap cert;

  @JsonProperty("keySecret")
  @JsonPropertyDescription("Secret key of the client key.")
  private SecretKeySelector keySecret;

  @JsonProperty("serverName")
  @JsonPropertyDescription("Server name to verify.")
  private String serverName;

  @JsonProperty("insecureSkipVerify")
  @JsonPropertyDescription("Skip server certificate verification.")
  private Boolean insecureSkipVerify;

  @JsonProperty("caFile")
  @JsonPropertyDescription("Path of the CA certificate.")
  private String caFile;

  @JsonProperty("certFile")
  @JsonPropertyDescription("Path of the client certificate.")
  private String certFile;

  @JsonProperty("keyFile")
  @JsonPropertyDescription("Path of the client key.")
  private String keyFile;
}
