package io.tidb.operator.api.v1alpha1.shared;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** A reference to another TidbCluster this one joins. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode
public class TidbClusterRef {

  @JsonProperty("name")
  @JsonPropertyDescription("Name of the referenced TidbCluster.")
  @Required
  private String name;

  @JsonProperty("namespace")
  @JsonPropertyDescription("Namespace of the referenced TidbCluster; this one's when empty.")
  private String namespace;

  @JsonProperty("clusterDomain")
  @JsonPropertyDescription("Kubernetes cluster domain of the referenced TidbCluster.")
  private String clusterDomain;
}
