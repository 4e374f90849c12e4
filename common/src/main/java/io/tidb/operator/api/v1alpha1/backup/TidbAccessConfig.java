package io.tidb.operator.api.v1alpha1.backup;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** How to reach TiDB over the MySQL protocol, as upstream's TiDBAccessConfig (Dumpling/Lightning path, and GC life time before v4.0.8). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode
public class TidbAccessConfig {

  @JsonProperty("host")
  @JsonPropertyDescription("Host of TiDB. Required.")
  @Required
  private String host;

  @JsonProperty("port")
  @JsonPropertyDescription("Port of TiDB.")
  private Integer port;

  @JsonProperty("user")
  @JsonPropertyDescription("User to connect as.")
  private String user;

  @JsonProperty("secretName")
  @JsonPropertyDescription("Secret whose key password is the user's password. Required.")
  @Required
  private String secretName;

  @JsonProperty("tlsClientSecretName")
  @JsonPropertyDescription("Secret with the TiDB client certificate.")
  private String tlsClientSecretName;
}
