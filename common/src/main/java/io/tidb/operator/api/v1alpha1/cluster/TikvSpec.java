package io.tidb.operator.api.v1alpha1.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.ValidationRule;
import java.util.List;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** The TiKV storage component. */
@ValidationRule(value = "has(self.requests) && 'storage' in self.requests", message = "the data volume size is required", fieldPath = ".requests", reason = "FieldValueRequired")
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode(callSuper = true)
public class TikvSpec extends MemberSpec {

  @JsonProperty("baseImage")
  @JsonPropertyDescription("Image without tag; the image is baseImage:version.")
  @Default("pingcap/tikv")
  private String baseImage;

  @JsonProperty("privileged")
  @JsonPropertyDescription("Run the main container privileged.")
  private Boolean privileged;

  @JsonProperty("maxFailoverCount")
  @JsonPropertyDescription("Most extra members the operator creates on failover; 0 disables failover.")
  @Min(0)
  private Integer maxFailoverCount;

  @JsonProperty("storageClassName")
  @JsonPropertyDescription("StorageClass of the data volume; the cluster default when empty.")
  private String storageClassName;

  @JsonProperty("volumeAttributesClassName")
  @JsonPropertyDescription("VolumeAttributesClass of the data volume.")
  private String volumeAttributesClassName;

  @JsonProperty("storageVolumes")
  @JsonPropertyDescription("Extra persistent volumes mounted into the main container.")
  private List<StorageVolume> storageVolumes;

  @JsonProperty("dataSubDir")
  @JsonPropertyDescription("Subdirectory of the data volume that holds the data; must be relative without '..'.")
  @ValidationRule(value = "!self.startsWith('/') && !self.matches('(^|/)[.][.](/|$)')", message = "must be a relative path without '..'")
  private String dataSubDir;

  @JsonProperty("config")
  @JsonPropertyDescription("Free-form configuration file, rendered to TOML. Either a map or a TOML string.")
  @SchemaFrom(type = JsonNode.class)
  private ComponentConfig config;

  @JsonProperty("separateRocksDBLog")
  @JsonPropertyDescription("Write the RocksDB log to its own file.")
  private Boolean separateRocksDBLog;

  @JsonProperty("separateRaftLog")
  @JsonPropertyDescription("Write the Raft log to its own file.")
  private Boolean separateRaftLog;

  @JsonProperty("rocksDBLogVolumeName")
  @JsonPropertyDescription("Name of a storageVolume holding the RocksDB log.")
  private String rocksDBLogVolumeName;

  @JsonProperty("raftLogVolumeName")
  @JsonPropertyDescription("Name of a storageVolume holding the Raft log.")
  private String raftLogVolumeName;

  @JsonProperty("logTailer")
  @JsonPropertyDescription("The sidecar that tails the log file to stdout.")
  private LogTailerSpec logTailer;

  @JsonProperty("recoverFailover")
  @JsonPropertyDescription("Remove failover members once the failed ones are healthy again.")
  private Boolean recoverFailover;

  @JsonProperty("failover")
  @JsonPropertyDescription("Failover behaviour.")
  private Failover failover;

  @JsonProperty("mountClusterClientSecret")
  @JsonPropertyDescription("Mount the cluster client TLS secret into the pods (for pd-ctl/tikv-ctl).")
  private Boolean mountClusterClientSecret;

  @JsonProperty("evictLeaderTimeout")
  @JsonPropertyDescription("How long to wait for leader eviction before restarting a store (Go duration, default 1500m).")
  private String evictLeaderTimeout;

  @JsonProperty("waitLeaderTransferBackTimeout")
  @JsonPropertyDescription("How long to wait for leaders to return after a restart (Go duration, default 400s).")
  private String waitLeaderTransferBackTimeout;

  @JsonProperty("storeLabels")
  @JsonPropertyDescription("Node label keys copied to TiKV store labels.")
  private List<String> storeLabels;

  @JsonProperty("enableNamedStatusPort")
  @JsonPropertyDescription("Name the status port of the container.")
  private Boolean enableNamedStatusPort;

  @JsonProperty("scalePolicy")
  @JsonPropertyDescription("How many members are added or removed at once.")
  private ScalePolicy scalePolicy;

  @JsonProperty("spareVolReplaceReplicas")
  @JsonPropertyDescription("Extra members kept while volumes are replaced.")
  @Min(0)
  private Integer spareVolReplaceReplicas;
}
