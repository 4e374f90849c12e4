package io.tidb.operator.api.v1alpha1.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Min;
import java.util.Objects;

/** Settings shared by the components that run as a group of members. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public abstract class MemberSpec extends ComponentSpec {

  @JsonProperty("replicas")
  @JsonPropertyDescription("Desired number of members.")
  @Min(0)
  private Integer replicas;

  @JsonProperty("serviceAccount")
  @JsonPropertyDescription("Service account of the pods; overrides spec.serviceAccount.")
  private String serviceAccount;

  public Integer getReplicas() {
    return replicas;
  }

  public void setReplicas(Integer replicas) {
    this.replicas = replicas;
  }

  public String getServiceAccount() {
    return serviceAccount;
  }

  public void setServiceAccount(String serviceAccount) {
    this.serviceAccount = serviceAccount;
  }

  /** Image without tag; the image is {@code baseImage:version}. */
  public abstract String getBaseImage();

  public abstract void setBaseImage(String baseImage);

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    if (!super.equals(o)) {
      return false;
    }
    MemberSpec that = (MemberSpec) o;
    return Objects.equals(replicas, that.replicas)
        && Objects.equals(serviceAccount, that.serviceAccount);
  }

  @Override
  public int hashCode() {
    return Objects.hash(super.hashCode(), replicas, serviceAccount);
  }
}
