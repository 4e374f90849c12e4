package io.tidb.operator.api.v1alpha1.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Min;
import java.util.Objects;

/** Parallelism of scaling. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class ScalePolicy {

  @JsonProperty("scaleInParallelism")
  @JsonPropertyDescription("Members removed at once.")
  @Default("1")
  @Min(1)
  private Integer scaleInParallelism;

  @JsonProperty("scaleOutParallelism")
  @JsonPropertyDescription("Members added at once.")
  @Default("1")
  @Min(1)
  private Integer scaleOutParallelism;

  public Integer getScaleInParallelism() {
    return scaleInParallelism;
  }

  public void setScaleInParallelism(Integer scaleInParallelism) {
    this.scaleInParallelism = scaleInParallelism;
  }

  public Integer getScaleOutParallelism() {
    return scaleOutParallelism;
  }

  public void setScaleOutParallelism(Integer scaleOutParallelism) {
    this.scaleOutParallelism = scaleOutParallelism;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    ScalePolicy that = (ScalePolicy) o;
    return Objects.equals(scaleInParallelism, that.scaleInParallelism)
        && Objects.equals(scaleOutParallelism, that.scaleOutParallelism);
  }

  @Override
  public int hashCode() {
    return Objects.hash(scaleInParallelism, scaleOutParallelism);
  }
}
