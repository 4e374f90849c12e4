package io.tidb.operator.api.v1alpha1.monitor;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** remote_write queue tuning; durations are nanoseconds as upstream. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode
public class QueueConfig {

  @JsonProperty("capacity")
  @JsonPropertyDescription("Samples buffered per shard.")
  private Integer capacity;

  @JsonProperty("minShards")
  @JsonPropertyDescription("Minimum shards.")
  private Integer minShards;

  @JsonProperty("maxShards")
  @JsonPropertyDescription("Maximum shards.")
  private Integer maxShards;

  @JsonProperty("maxSamplesPerSend")
  @JsonPropertyDescription("Maximum samples per send.")
  private Integer maxSamplesPerSend;

  @JsonProperty("batchSendDeadline")
  @JsonPropertyDescription("Maximum time a sample waits in the buffer, in nanoseconds.")
  private Long batchSendDeadline;

  @JsonProperty("maxRetries")
  @JsonPropertyDescription("Maximum retries of a failed batch.")
  private Integer maxRetries;

  @JsonProperty("minBackoff")
  @JsonPropertyDescription("Initial retry delay, in nanoseconds.")
  private Long minBackoff;

  @JsonProperty("maxBackoff")
  @JsonPropertyDescription("Maximum retry delay, in nanoseconds.")
  private Long maxBackoff;
}
