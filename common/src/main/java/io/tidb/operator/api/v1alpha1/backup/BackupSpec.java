package io.tidb.operator.api.v1alpha1.backup;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.tidb.operator.api.v1alpha1.cluster.PreservedList;
import java.util.List;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** What a Backup backs up, where to, and how its Job runs, as upstream's BackupSpec. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode
public class BackupSpec {

  @JsonProperty("resources")
  @JsonPropertyDescription("Resources of the Job container.")
  private ResourceRequirements resources;

  @JsonProperty("env")
  @JsonPropertyDescription("Extra environment variables of the Job container.")
  private List<EnvVar> env;

  @JsonProperty("tolerations")
  @JsonPropertyDescription("Tolerations of the Job pod.")
  private List<Toleration> tolerations;

  @JsonProperty("toolImage")
  @JsonPropertyDescription("Image holding the br binary (or dumpling/lightning); the br binary is copied from it by an init container.")
  private String toolImage;

  @JsonProperty("imagePullSecrets")
  @JsonPropertyDescription("Secrets to pull the images with.")
  private List<LocalObjectReference> imagePullSecrets;

  @JsonProperty("affinity")
  @JsonPropertyDescription("Affinity of the Job pod. Stored without schema.")
  @SchemaFrom(type = JsonNode.class)
  private Affinity affinity;

  @JsonProperty("podSecurityContext")
  @JsonPropertyDescription("Security context of the Job pod. Stored without schema.")
  @SchemaFrom(type = JsonNode.class)
  private PodSecurityContext podSecurityContext;

  @JsonProperty("priorityClassName")
  @JsonPropertyDescription("Priority class of the Job pod.")
  private String priorityClassName;

  @JsonProperty("serviceAccount")
  @JsonPropertyDescription("ServiceAccount of the Job pod; a ServiceAccount of the operator's with only this Backup's rights when unset.")
  private String serviceAccount;

  @JsonProperty("useKMS")
  @JsonPropertyDescription("Whether the storage credentials are encrypted with AWS KMS.")
  private Boolean useKMS;

  @JsonProperty("additionalVolumes")
  @JsonPropertyDescription("Extra volumes of the Job pod. Stored without schema.")
  @SchemaFrom(type = PreservedList.class)
  private List<Volume> additionalVolumes;

  @JsonProperty("additionalVolumeMounts")
  @JsonPropertyDescription("Extra volume mounts of the Job container. Stored without schema.")
  @SchemaFrom(type = PreservedList.class)
  private List<VolumeMount> additionalVolumeMounts;

  @JsonProperty("automountServiceAccountToken")
  @JsonPropertyDescription("Whether the Job pod mounts its ServiceAccount token; the backup-manager needs it to write status.")
  private Boolean automountServiceAccountToken;

  @JsonProperty("from")
  @JsonPropertyDescription("TiDB over MySQL: the Dumpling path, and GC life time before TiKV v4.0.8.")
  private TidbAccessConfig from;

  @JsonProperty("backupType")
  @JsonPropertyDescription("full, db or table (BR); full when unset.")
  private String backupType;

  @JsonProperty("backupMode")
  @JsonPropertyDescription("snapshot, log or volume-snapshot; snapshot when unset.")
  private String backupMode;

  @JsonProperty("tikvGCLifeTime")
  @JsonPropertyDescription("TiKV GC life time while the backup runs.")
  private String tikvGCLifeTime;

  @JsonProperty("s3")
  @JsonPropertyDescription("S3-compatible storage (AWS, Ceph, MinIO, ...).")
  private S3StorageProvider s3;

  @JsonProperty("gcs")
  @JsonPropertyDescription("Google Cloud Storage.")
  private GcsStorageProvider gcs;

  @JsonProperty("azblob")
  @JsonPropertyDescription("Azure Blob Storage.")
  private AzblobStorageProvider azblob;

  @JsonProperty("local")
  @JsonPropertyDescription("A volume mounted into the Job pod (NFS, hostPath, PVC).")
  private LocalStorageProvider local;

  @JsonProperty("br")
  @JsonPropertyDescription("BR settings; unset means the Dumpling path.")
  private BrConfig br;

  @JsonProperty("commitTs")
  @JsonPropertyDescription("Log backup: the TSO or time the log backup starts at; snapshot: the snapshot to back up.")
  private String commitTs;

  @JsonProperty("logSubcommand")
  @JsonPropertyDescription("Log backup: log-start, log-stop or log-pause.")
  private String logSubcommand;

  @JsonProperty("logTruncateUntil")
  @JsonPropertyDescription("Log backup: truncate the log data before this TSO or time.")
  private String logTruncateUntil;

  @JsonProperty("logStop")
  @JsonPropertyDescription("Log backup: deprecated upstream in favour of logSubcommand log-stop.")
  private Boolean logStop;

  @JsonProperty("calcSizeLevel")
  @JsonPropertyDescription("Volume-snapshot backups: how the size is computed: all, incremental or none.")
  private String calcSizeLevel;

  @JsonProperty("federalVolumeBackupPhase")
  @JsonPropertyDescription("Volume-snapshot backups across Kubernetes clusters: the phase.")
  private String federalVolumeBackupPhase;

  @JsonProperty("resumeGcSchedule")
  @JsonPropertyDescription("Volume-snapshot backups: whether to resume PD's GC and schedulers.")
  private Boolean resumeGcSchedule;

  @JsonProperty("dumpling")
  @JsonPropertyDescription("Dumpling settings.")
  private DumplingConfig dumpling;

  @JsonProperty("storageClassName")
  @JsonPropertyDescription("Storage class of the Dumpling Job's volume.")
  private String storageClassName;

  @JsonProperty("storageSize")
  @JsonPropertyDescription("Size of the Dumpling Job's volume.")
  private String storageSize;

  @JsonProperty("tableFilter")
  @JsonPropertyDescription("BR table filter rules (--filter).")
  private List<String> tableFilter;

  @JsonProperty("cleanPolicy")
  @JsonPropertyDescription("What happens to the data when the Backup is deleted: Retain (default), OnFailure or Delete.")
  private String cleanPolicy;

  @JsonProperty("cleanOption")
  @JsonPropertyDescription("How the data is removed.")
  private CleanOption cleanOption;

  @JsonProperty("backoffRetryPolicy")
  @JsonPropertyDescription("How a failed backup is retried.")
  private BackoffRetryPolicy backoffRetryPolicy;

  @JsonProperty("volumeBackupInitJobMaxActiveSeconds")
  @JsonPropertyDescription("Volume-snapshot backups: deadline of the init Job.")
  private Integer volumeBackupInitJobMaxActiveSeconds;

  @JsonProperty("volumeAttributesClassName")
  @JsonPropertyDescription("Volume attributes class of the Dumpling Job's volume.")
  private String volumeAttributesClassName;
}
