package io.tidb.operator.api.v1alpha1.backup;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** How a failed backup is retried, as upstream's BackoffRetryPolicy. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode
public class BackoffRetryPolicy {

  @JsonProperty("minRetryDuration")
  @JsonPropertyDescription("Wait before the first retry (Go duration); doubles with each retry. Upstream default 300s.")
  private String minRetryDuration;

  @JsonProperty("maxRetryTimes")
  @JsonPropertyDescription("The most retries. Upstream default 2.")
  private Integer maxRetryTimes;

  @JsonProperty("retryTimeout")
  @JsonPropertyDescription("No retry after this long since the first failure (Go duration). Upstream default 30m.")
  private String retryTimeout;
}
