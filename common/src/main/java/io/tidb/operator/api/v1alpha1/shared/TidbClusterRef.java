package io.tidb.operator.api.v1alpha1.shared;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import java.util.Objects;

/** A reference to another TidbCluster this one joins. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
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

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }

  public String getNamespace() {
    return namespace;
  }

  public void setNamespace(String namespace) {
    this.namespace = namespace;
  }

  public String getClusterDomain() {
    return clusterDomain;
  }

  public void setClusterDomain(String clusterDomain) {
    this.clusterDomain = clusterDomain;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    TidbClusterRef that = (TidbClusterRef) o;
    return Objects.equals(name, that.name)
        && Objects.equals(namespace, that.namespace)
        && Objects.equals(clusterDomain, that.clusterDomain);
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, namespace, clusterDomain);
  }
}
