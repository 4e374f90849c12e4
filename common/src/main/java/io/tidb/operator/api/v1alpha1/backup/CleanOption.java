package io.tidb.operator.api.v1alpha1.backup;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** How the data of a deleted backup is removed, as upstream's CleanOption. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode
public class CleanOption {

  @JsonProperty("pageSize")
  @JsonPropertyDescription("Objects listed per page.")
  private Long pageSize;

  @JsonProperty("retryCount")
  @JsonPropertyDescription("Attempts to delete each batch. Upstream default 5.")
  private Integer retryCount;

  @JsonProperty("backoffEnabled")
  @JsonPropertyDescription("Whether deletion backs off between attempts.")
  private Boolean backoffEnabled;

  @JsonProperty("disableBatchConcurrency")
  @JsonPropertyDescription("Delete objects one by one instead of in batches.")
  private Boolean disableBatchConcurrency;

  @JsonProperty("batchConcurrency")
  @JsonPropertyDescription("Concurrent batch deletions.")
  private Integer batchConcurrency;

  @JsonProperty("routineConcurrency")
  @JsonPropertyDescription("Concurrent single deletions.")
  private Integer routineConcurrency;

  @JsonProperty("snapshotsDeleteRatio")
  @JsonPropertyDescription("Volume-snapshot deletions per second (upstream default 1).")
  private Double snapshotsDeleteRatio;
}
