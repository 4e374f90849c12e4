package io.tidb.operator.api.v1alpha1.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.Objects;

/** TLS between MySQL clients and TiDB. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
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

  public Boolean getEnabled() {
    return enabled;
  }

  public void setEnabled(Boolean enabled) {
    this.enabled = enabled;
  }

  public Boolean getDisableClientAuthn() {
    return disableClientAuthn;
  }

  public void setDisableClientAuthn(Boolean disableClientAuthn) {
    this.disableClientAuthn = disableClientAuthn;
  }

  public Boolean getSkipInternalClientCA() {
    return skipInternalClientCA;
  }

  public void setSkipInternalClientCA(Boolean skipInternalClientCA) {
    this.skipInternalClientCA = skipInternalClientCA;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    TidbTlsClient that = (TidbTlsClient) o;
    return Objects.equals(enabled, that.enabled)
        && Objects.equals(disableClientAuthn, that.disableClientAuthn)
        && Objects.equals(skipInternalClientCA, that.skipInternalClientCA);
  }

  @Override
  public int hashCode() {
    return Objects.hash(enabled, disableClientAuthn, skipInternalClientCA);
  }
}
