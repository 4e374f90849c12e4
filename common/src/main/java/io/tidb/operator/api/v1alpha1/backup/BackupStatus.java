package io.tidb.operator.api.v1alpha1.backup;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.List;
import java.util.Map;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** What the controller and the backup-manager report about a Backup, as upstream's BackupStatus. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode
public class BackupStatus {

  @JsonProperty("backupPath")
  @JsonPropertyDescription("Where the backup is, e.g. s3://bucket/prefix.")
  private String backupPath;

  @JsonProperty("timeStarted")
  @JsonPropertyDescription("When the backup started.")
  private String timeStarted;

  @JsonProperty("timeCompleted")
  @JsonPropertyDescription("When it completed.")
  private String timeCompleted;

  @JsonProperty("timeTaken")
  @JsonPropertyDescription("How long it took.")
  private String timeTaken;

  @JsonProperty("backupSizeReadable")
  @JsonPropertyDescription("Size, human-readable.")
  private String backupSizeReadable;

  @JsonProperty("backupSize")
  @JsonPropertyDescription("Size in bytes.")
  private Long backupSize;

  @JsonProperty("incrementalBackupSizeReadable")
  @JsonPropertyDescription("Incremental size of a volume-snapshot backup, human-readable.")
  private String incrementalBackupSizeReadable;

  @JsonProperty("incrementalBackupSize")
  @JsonPropertyDescription("Incremental size in bytes.")
  private Long incrementalBackupSize;

  @JsonProperty("commitTs")
  @JsonPropertyDescription("The TSO the backup is consistent at (snapshot), or the log backup's start.")
  private String commitTs;

  @JsonProperty("logSuccessTruncateUntil")
  @JsonPropertyDescription("Log backup: truncated up to this TSO.")
  private String logSuccessTruncateUntil;

  @JsonProperty("logCheckpointTs")
  @JsonPropertyDescription("Log backup: the checkpoint.")
  private String logCheckpointTs;

  @JsonProperty("phase")
  @JsonPropertyDescription("Scheduled, Prepare, Running, Complete, Failed, Invalid, ...")
  private String phase;

  @JsonProperty("conditions")
  @JsonPropertyDescription("Conditions, one per type.")
  private List<BackupCondition> conditions;

  @JsonProperty("logSubCommandStatuses")
  @JsonPropertyDescription("Log backup: status per subcommand.")
  private Map<String, LogSubCommandStatus> logSubCommandStatuses;

  @JsonProperty("progresses")
  @JsonPropertyDescription("BR progress.")
  private List<Progress> progresses;

  @JsonProperty("backoffRetryStatus")
  @JsonPropertyDescription("Retries of a failed backup.")
  private List<BackoffRetryRecord> backoffRetryStatus;

  @JsonProperty("brOperations")
  @JsonPropertyDescription("BR operations seen.")
  private List<BrOperation> brOperations;

  @JsonProperty("timeSynced")
  @JsonPropertyDescription("Volume-snapshot backups: when the status was synced.")
  private String timeSynced;

  @JsonProperty("observedGeneration")
  @JsonPropertyDescription("The generation the controller last acted on.")
  private Long observedGeneration;
}
