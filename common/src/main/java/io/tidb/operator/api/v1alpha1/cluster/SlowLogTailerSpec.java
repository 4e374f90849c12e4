package io.tidb.operator.api.v1alpha1.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import java.util.Objects;

/** The sidecar that tails the TiDB slow log. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class SlowLogTailerSpec extends LogTailerSpec {

  @JsonProperty("image")
  @JsonPropertyDescription("Image of the sidecar; defaults to the helper image.")
  private String image;

  @JsonProperty("imagePullPolicy")
  @JsonPropertyDescription("Pull policy of the sidecar image.")
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
    if (!super.equals(o)) {
      return false;
    }
    SlowLogTailerSpec that = (SlowLogTailerSpec) o;
    return Objects.equals(image, that.image)
        && Objects.equals(imagePullPolicy, that.imagePullPolicy);
  }

  @Override
  public int hashCode() {
    return Objects.hash(super.hashCode(), image, imagePullPolicy);
  }
}
