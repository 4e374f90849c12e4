package io.tidb.operator.api.v1alpha1.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Min;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** Settings shared by the components that run as a group of members. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode(callSuper = true)
public abstract class MemberSpec extends ComponentSpec {

  @JsonProperty("replicas")
  @JsonPropertyDescription("Desired number of members.")
  @Min(0)
  private Integer replicas;

  @JsonProperty("serviceAccount")
  @JsonPropertyDescription("Service account of the pods; overrides spec.serviceAccount.")
  private String serviceAccount;

  /** Image without tag; the image is {@code baseImage:version}. */
  public abstract String getBaseImage();

  public abstract void setBaseImage(String baseImage);
}
