package io.tidb.operator.api.v1alpha1.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Min;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** Parallelism of scaling. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode
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
}
