package io.tidb.operator.api.v1alpha1.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import java.util.Objects;

/** The helper image used for small utility containers. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class HelperSpec {

  @JsonProperty("image")
  @JsonPropertyDescription("Helper image; default busybox:1.26.2.")
  private String image;

  @JsonProperty("imagePullPolicy")
  @JsonPropertyDescription("Pull policy of the helper image.")
  @Pattern("^(Always|Never|IfNotPresent)?$")
  private String imagePullPolicy;

  public String getImage() {
    return image;
  }

  public void setImage(String image) {
    this.image = image;
  }

  public String getImagePullPolicy() {
    return imagePullPolicy;
  }

  public void setImagePullPolicy(String imagePullPolicy) {
    this.imagePullPolicy = imagePullPolicy;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    HelperSpec that = (HelperSpec) o;
    return Objects.equals(image, that.image)
        && Objects.equals(imagePullPolicy, that.imagePullPolicy);
  }

  @Override
  public int hashCode() {
    return Objects.hash(image, imagePullPolicy);
  }
}
