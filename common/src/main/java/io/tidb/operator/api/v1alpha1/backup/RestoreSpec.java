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

/** What a Restore restores, from where, and how its Job runs, as upstream's RestoreSpec. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode
public class RestoreSpec {

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
  @JsonPropertyDescription("ServiceAccount of the Job pod; a ServiceAccount of the operator's with only this Restore's rights when unset.")
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

  @JsonProperty("to")
  @JsonPropertyDescription("TiDB over MySQL: the Lightning path.")
  private TidbAccessConfig to;

  @JsonProperty("backupType")
  @JsonPropertyDescription("full, db or table.")
  private String backupType;

  @JsonProperty("restoreMode")
  @JsonPropertyDescription("snapshot, pitr or volume-snapshot; snapshot when unset.")
  private String restoreMode;

  @JsonProperty("pitrRestoredTs")
  @JsonPropertyDescription("Point-in-time restore: the TSO or time to restore to.")
  private String pitrRestoredTs;

  @JsonProperty("logRestoreStartTs")
  @JsonPropertyDescription("Point-in-time restore: where the log restore starts, when no full backup is given.")
  private String logRestoreStartTs;

  @JsonProperty("federalVolumeRestorePhase")
  @JsonPropertyDescription("Volume-snapshot restores across Kubernetes clusters: the phase.")
  private String federalVolumeRestorePhase;

  @JsonProperty("volumeAZ")
  @JsonPropertyDescription("Volume-snapshot restores: the availability zone.")
  private String volumeAZ;

  @JsonProperty("tikvGCLifeTime")
  @JsonPropertyDescription("TiKV GC life time while the restore runs.")
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

  @JsonProperty("pitrFullBackupStorageProvider")
  @JsonPropertyDescription("Point-in-time restore: where the full backup is.")
  private StorageProvider pitrFullBackupStorageProvider;

  @JsonProperty("br")
  @JsonPropertyDescription("BR settings; unset means the Lightning path.")
  private BrConfig br;

  @JsonProperty("tableFilter")
  @JsonPropertyDescription("BR table filter rules.")
  private List<String> tableFilter;

  @JsonProperty("storageClassName")
  @JsonPropertyDescription("Storage class of the Lightning Job's volume.")
  private String storageClassName;

  @JsonProperty("storageSize")
  @JsonPropertyDescription("Size of the Lightning Job's volume.")
  private String storageSize;

  @JsonProperty("warmup")
  @JsonPropertyDescription("Volume-snapshot restores: warm-up mode.")
  private String warmup;

  @JsonProperty("warmupImage")
  @JsonPropertyDescription("Volume-snapshot restores: warm-up image.")
  private String warmupImage;

  @JsonProperty("warmupStrategy")
  @JsonPropertyDescription("Volume-snapshot restores: warm-up strategy.")
  private String warmupStrategy;

  @JsonProperty("backoffLimit")
  @JsonPropertyDescription("Retries of the restore Job.")
  private Integer backoffLimit;

  @JsonProperty("prune")
  @JsonPropertyDescription("Volume-snapshot restores: afterFailed prunes the data of a failed restore.")
  private String prune;

  @JsonProperty("tolerateSingleTiKVOutage")
  @JsonPropertyDescription("Volume-snapshot restores: tolerate one TiKV outage.")
  private Boolean tolerateSingleTiKVOutage;

  @JsonProperty("replicationConfig")
  @JsonPropertyDescription("Replication restore settings.")
  private RestoreReplicationConfig replicationConfig;

  @JsonProperty("volumeAttributesClassName")
  @JsonPropertyDescription("Volume attributes class of the Lightning Job's volume.")
  private String volumeAttributesClassName;
}
