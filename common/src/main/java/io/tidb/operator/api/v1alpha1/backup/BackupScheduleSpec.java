package io.tidb.operator.api.v1alpha1.backup;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import java.util.List;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** When a BackupSchedule backs up, what, and how many backups it keeps, as upstream's BackupScheduleSpec. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode
public class BackupScheduleSpec {

  @JsonProperty("schedule")
  @JsonPropertyDescription("A standard five-field cron expression (minute hour day-of-month month day-of-week), UTC. Required.")
  @Required
  private String schedule;

  @JsonProperty("pause")
  @JsonPropertyDescription("While true the schedule does nothing: no backup is created and none deleted, as upstream.")
  private Boolean pause;

  @JsonProperty("maxBackups")
  @JsonPropertyDescription("Keep at most this many backups, deleting the oldest.")
  private Integer maxBackups;

  @JsonProperty("maxReservedTime")
  @JsonPropertyDescription("Delete backups older than this (Go duration, e.g. 72h); maxBackups wins when both are set.")
  private String maxReservedTime;

  @JsonProperty("compactInterval")
  @JsonPropertyDescription("How often log backups are compacted.")
  private String compactInterval;

  @JsonProperty("backupTemplate")
  @JsonPropertyDescription("The spec of each Backup the schedule creates. Required.")
  @Required
  private BackupSpec backupTemplate;

  @JsonProperty("logBackupTemplate")
  @JsonPropertyDescription("The spec of the companion log backup.")
  private BackupSpec logBackupTemplate;

  @JsonProperty("compactBackupTemplate")
  @JsonPropertyDescription("The spec of the log-backup compactions.")
  private CompactSpec compactBackupTemplate;

  @JsonProperty("storageClassName")
  @JsonPropertyDescription("Storage class of the Dumpling Job's volume.")
  private String storageClassName;

  @JsonProperty("storageSize")
  @JsonPropertyDescription("Size of the Dumpling Job's volume.")
  private String storageSize;

  @JsonProperty("volumeAttributesClassName")
  @JsonPropertyDescription("Volume attributes class of the Dumpling Job's volume.")
  private String volumeAttributesClassName;

  @JsonProperty("br")
  @JsonPropertyDescription("BR settings used when the template has none.")
  private BrConfig br;

  @JsonProperty("imagePullSecrets")
  @JsonPropertyDescription("Secrets to pull the images of the compaction Jobs with.")
  private List<LocalObjectReference> imagePullSecrets;

  @JsonProperty("minCompactStartTs")
  @JsonPropertyDescription("Compactions start no earlier than this TSO.")
  private String minCompactStartTs;

  @JsonProperty("s3")
  @JsonPropertyDescription("S3-compatible storage (AWS, Ceph, MinIO, ...). Used when the template has no storage.")
  private S3StorageProvider s3;

  @JsonProperty("gcs")
  @JsonPropertyDescription("Google Cloud Storage. Used when the template has no storage.")
  private GcsStorageProvider gcs;

  @JsonProperty("azblob")
  @JsonPropertyDescription("Azure Blob Storage. Used when the template has no storage.")
  private AzblobStorageProvider azblob;

  @JsonProperty("local")
  @JsonPropertyDescription("A volume mounted into the Job pod (NFS, hostPath, PVC). Used when the template has no storage.")
  private LocalStorageProvider local;
}
