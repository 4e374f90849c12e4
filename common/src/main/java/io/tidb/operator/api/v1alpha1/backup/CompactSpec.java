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

/** A compaction of log backups, as upstream's CompactSpec (BackupSchedule.spec.compactBackupTemplate). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode
public class CompactSpec {

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

  @JsonProperty("serviceAccount")
  @JsonPropertyDescription("ServiceAccount of the Job pod.")
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

  @JsonProperty("priorityClassName")
  @JsonPropertyDescription("Priority class of the Job pod.")
  private String priorityClassName;

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

  @JsonProperty("startTs")
  @JsonPropertyDescription("Compact from this TSO.")
  private String startTs;

  @JsonProperty("endTs")
  @JsonPropertyDescription("Compact up to this TSO.")
  private String endTs;

  @JsonProperty("concurrency")
  @JsonPropertyDescription("Concurrency (upstream default 4).")
  private Integer concurrency;

  @JsonProperty("maxRetryTimes")
  @JsonPropertyDescription("Retries (upstream default 6).")
  private Integer maxRetryTimes;

  @JsonProperty("tikvImage")
  @JsonPropertyDescription("TiKV image running the compaction.")
  private String tikvImage;

  @JsonProperty("br")
  @JsonPropertyDescription("BR settings.")
  private BrConfig br;

  @JsonProperty("mode")
  @JsonPropertyDescription("Empty or sharded.")
  private String mode;

  @JsonProperty("shardCount")
  @JsonPropertyDescription("Shards of a sharded compaction.")
  private Integer shardCount;

  @JsonProperty("name")
  @JsonPropertyDescription("Name of the compaction.")
  private String name;

  @JsonProperty("physicalFileCacheCapacity")
  @JsonPropertyDescription("Cache capacity of the compaction.")
  private String physicalFileCacheCapacity;
}
