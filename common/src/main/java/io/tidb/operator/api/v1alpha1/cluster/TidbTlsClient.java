package io.tidb.operator.api.v1alpha1.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** TLS between MySQL clients and TiDB. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode
public class TidbTlsClient {

  @JsonProperty("enabled")
  @JsonPropertyDescription("Serve MySQL clients over TLS (secret <cluster>-tidb-server-secret).")
  private Boolean enabled;

  @JsonProperty("disableClientAuthn")
  @JsonPropertyDescription("Do not verify client certificates.")
  private Boolean disableClientAuthn;

  @JsonProperty("skipInternalClientCA")
  @JsonPropertyDescription("Do not add the internal client CA to the trusted CAs.")
  private Boolean skipInternalClientCA;
}
