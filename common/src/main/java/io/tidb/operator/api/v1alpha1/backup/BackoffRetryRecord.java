package io.tidb.operator.api.v1alpha1.backup;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** One retry of a failed backup, as upstream's BackoffRetryRecord. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode
public class BackoffRetryRecord {

  @JsonProperty("retryNum")
  @JsonPropertyDescription("Which retry.")
  private Integer retryNum;

  @JsonProperty("detectFailedAt")
  @JsonPropertyDescription("When the failure was seen.")
  private String detectFailedAt;

  @JsonProperty("expectedRetryAt")
  @JsonPropertyDescription("When the retry was due.")
  private String expectedRetryAt;

  @JsonProperty("realRetryAt")
  @JsonPropertyDescription("When it happened.")
  private String realRetryAt;

  @JsonProperty("retryReason")
  @JsonPropertyDescription("Why it was retried.")
  private String retryReason;

  @JsonProperty("originalReason")
  @JsonPropertyDescription("The failure.")
  private String originalReason;
}
