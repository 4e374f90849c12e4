package io.tidb.operator.api.v1alpha1.initializer;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.Toleration;
import io.tidb.operator.api.v1alpha1.shared.TidbClusterRef;
import java.util.List;
import java.util.Map;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** What a TidbInitializer does to its cluster, and how its Job's pod runs. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode
public class TidbInitializerSpec {

  @JsonProperty("image")
  @JsonPropertyDescription(
      "Upstream's MySQL client image. Required as upstream requires it; this operator runs its own"
          + " image in initializer mode instead.")
  @Required
  private String image;

  @JsonProperty("cluster")
  @JsonPropertyDescription("The TidbCluster to initialise, in this namespace.")
  @Required
  private TidbClusterRef cluster;

  @JsonProperty("podSecurityContext")
  @JsonPropertyDescription("Security context of the initializer pod.")
  private PodSecurityContext podSecurityContext;

  @JsonProperty("imagePullPolicy")
  @JsonPropertyDescription("Pull policy of the initializer image: Always, IfNotPresent or Never.")
  private String imagePullPolicy;

  @JsonProperty("imagePullSecrets")
  @JsonPropertyDescription("Secrets to pull the initializer image with.")
  private List<LocalObjectReference> imagePullSecrets;

  @JsonProperty("serviceAccountName")
  @JsonPropertyDescription("ServiceAccount of the initializer pod (it gets no API token).")
  private String serviceAccountName;

  @JsonProperty("permitHost")
  @JsonPropertyDescription(
      "The only host root (and the users of passwordSecret) may connect from; % (any) when unset.")
  private String permitHost;

  @JsonProperty("initSql")
  @JsonPropertyDescription("SQL statements, separated by ';', run in order after the passwords are set.")
  private String initSql;

  @JsonProperty("initSqlConfigMap")
  @JsonPropertyDescription(
      "ConfigMap whose key init-sql holds the SQL statements; takes precedence over initSql.")
  private String initSqlConfigMap;

  @JsonProperty("passwordSecret")
  @JsonPropertyDescription(
      "Secret whose key root is the root password; every other key creates a user of that name"
          + " with that password.")
  private String passwordSecret;

  @JsonProperty("resources")
  @JsonPropertyDescription("Resources of the initializer container.")
  private ResourceRequirements resources;

  @JsonProperty("timezone")
  @JsonPropertyDescription(
      "Time zone (IANA name) of the initializer pod and of the session the init SQL runs in.")
  private String timezone;

  @JsonProperty("tlsClientSecretName")
  @JsonPropertyDescription(
      "Secret with the TiDB client certificate (ca.crt, tls.crt, tls.key) used when the cluster's"
          + " spec.tidb.tlsClient is enabled; <cluster>-tidb-client-secret when unset.")
  private String tlsClientSecretName;

  @JsonProperty("tolerations")
  @JsonPropertyDescription("Tolerations of the initializer pod.")
  private List<Toleration> tolerations;

  @JsonProperty("nodeSelector")
  @JsonPropertyDescription("Node selector of the initializer pod.")
  private Map<String, String> nodeSelector;
}
