package io.tidb.operator.api.v1alpha1.backup;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.List;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** What the controller reports about a BackupSchedule, as upstream's BackupScheduleStatus. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode
public class BackupScheduleStatus {

  @JsonProperty("lastBackup")
  @JsonPropertyDescription("Name of the last Backup created.")
  private String lastBackup;

  @JsonProperty("lastCompact")
  @JsonPropertyDescription("Name of the last compaction.")
  private String lastCompact;

  @JsonProperty("lastBackupTime")
  @JsonPropertyDescription("When the last Backup was scheduled.")
  private String lastBackupTime;

  @JsonProperty("lastCompactProgress")
  @JsonPropertyDescription("Progress of the last compaction.")
  private String lastCompactProgress;

  @JsonProperty("lastCompactExecutionTs")
  @JsonPropertyDescription("When the last compaction ran.")
  private String lastCompactExecutionTs;

  @JsonProperty("logBackupStartTs")
  @JsonPropertyDescription("When the companion log backup started.")
  private String logBackupStartTs;

  @JsonProperty("allBackupCleanTime")
  @JsonPropertyDescription("When the schedule was deleted and its backups cleaned.")
  private String allBackupCleanTime;

  @JsonProperty("logBackup")
  @JsonPropertyDescription("Name of the companion log backup.")
  private String logBackup;

  @JsonProperty("conditions")
  @JsonPropertyDescription("Conditions (Ready, Invalid).")
  private List<BackupCondition> conditions;

  @JsonProperty("observedGeneration")
  @JsonPropertyDescription("The generation the controller last acted on.")
  private Long observedGeneration;
}
