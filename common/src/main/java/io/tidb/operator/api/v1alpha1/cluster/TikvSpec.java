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
import java.util.Objects;

/** The TiKV storage component. */
@ValidationRule(value = "has(self.requests) && 'storage' in self.requests", message = "the data volume size is required", fieldPath = ".requests", reason = "FieldValueRequired")
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
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

  public String getBaseImage() {
    return baseImage;
  }

  public void setBaseImage(String baseImage) {
    this.baseImage = baseImage;
  }

  public Boolean getPrivileged() {
    return privileged;
  }

  public void setPrivileged(Boolean privileged) {
    this.privileged = privileged;
  }

  public Integer getMaxFailoverCount() {
    return maxFailoverCount;
  }

  public void setMaxFailoverCount(Integer maxFailoverCount) {
    this.maxFailoverCount = maxFailoverCount;
  }

  public String getStorageClassName() {
    return storageClassName;
  }

  public void setStorageClassName(String storageClassName) {
    this.storageClassName = storageClassName;
  }

  public String getVolumeAttributesClassName() {
    return volumeAttributesClassName;
  }

  public void setVolumeAttributesClassName(String volumeAttributesClassName) {
    this.volumeAttributesClassName = volumeAttributesClassName;
  }

  public List<StorageVolume> getStorageVolumes() {
    return storageVolumes;
  }

  public void setStorageVolumes(List<StorageVolume> storageVolumes) {
    this.storageVolumes = storageVolumes;
  }

  public String getDataSubDir() {
    return dataSubDir;
  }

  public void setDataSubDir(String dataSubDir) {
    this.dataSubDir = dataSubDir;
  }

  public ComponentConfig getConfig() {
    return config;
  }

  public void setConfig(ComponentConfig config) {
    this.config = config;
  }

  public Boolean getSeparateRocksDBLog() {
    return separateRocksDBLog;
  }

  public void setSeparateRocksDBLog(Boolean separateRocksDBLog) {
    this.separateRocksDBLog = separateRocksDBLog;
  }

  public Boolean getSeparateRaftLog() {
    return separateRaftLog;
  }

  public void setSeparateRaftLog(Boolean separateRaftLog) {
    this.separateRaftLog = separateRaftLog;
  }

  public String getRocksDBLogVolumeName() {
    return rocksDBLogVolumeName;
  }

  public void setRocksDBLogVolumeName(String rocksDBLogVolumeName) {
    this.rocksDBLogVolumeName = rocksDBLogVolumeName;
  }

  public String getRaftLogVolumeName() {
    return raftLogVolumeName;
  }

  public void setRaftLogVolumeName(String raftLogVolumeName) {
    this.raftLogVolumeName = raftLogVolumeName;
  }

  public LogTailerSpec getLogTailer() {
    return logTailer;
  }

  public void setLogTailer(LogTailerSpec logTailer) {
    this.logTailer = logTailer;
  }

  public Boolean getRecoverFailover() {
    return recoverFailover;
  }

  public void setRecoverFailover(Boolean recoverFailover) {
    this.recoverFailover = recoverFailover;
  }

  public Failover getFailover() {
    return failover;
  }

  public void setFailover(Failover failover) {
    this.failover = failover;
  }

  public Boolean getMountClusterClientSecret() {
    return mountClusterClientSecret;
  }

  public void setMountClusterClientSecret(Boolean mountClusterClientSecret) {
    this.mountClusterClientSecret = mountClusterClientSecret;
  }

  public String getEvictLeaderTimeout() {
    return evictLeaderTimeout;
  }

  public void setEvictLeaderTimeout(String evictLeaderTimeout) {
    this.evictLeaderTimeout = evictLeaderTimeout;
  }

  public String getWaitLeaderTransferBackTimeout() {
    return waitLeaderTransferBackTimeout;
  }

  public void setWaitLeaderTransferBackTimeout(String waitLeaderTransferBackTimeout) {
    this.waitLeaderTransferBackTimeout = waitLeaderTransferBackTimeout;
  }

  public List<String> getStoreLabels() {
    return storeLabels;
  }

  public void setStoreLabels(List<String> storeLabels) {
    this.storeLabels = storeLabels;
  }

  public Boolean getEnableNamedStatusPort() {
    return enableNamedStatusPort;
  }

  public void setEnableNamedStatusPort(Boolean enableNamedStatusPort) {
    this.enableNamedStatusPort = enableNamedStatusPort;
  }

  public ScalePolicy getScalePolicy() {
    return scalePolicy;
  }

  public void setScalePolicy(ScalePolicy scalePolicy) {
    this.scalePolicy = scalePolicy;
  }

  public Integer getSpareVolReplaceReplicas() {
    return spareVolReplaceReplicas;
  }

  public void setSpareVolReplaceReplicas(Integer spareVolReplaceReplicas) {
    this.spareVolReplaceReplicas = spareVolReplaceReplicas;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    if (!super.equals(o)) {
      return false;
    }
    TikvSpec that = (TikvSpec) o;
    return Objects.equals(baseImage, that.baseImage)
        && Objects.equals(privileged, that.privileged)
        && Objects.equals(maxFailoverCount, that.maxFailoverCount)
        && Objects.equals(storageClassName, that.storageClassName)
        && Objects.equals(volumeAttributesClassName, that.volumeAttributesClassName)
        && Objects.equals(storageVolumes, that.storageVolumes)
        && Objects.equals(dataSubDir, that.dataSubDir)
        && Objects.equals(config, that.config)
        && Objects.equals(separateRocksDBLog, that.separateRocksDBLog)
        && Objects.equals(separateRaftLog, that.separateRaftLog)
        && Objects.equals(rocksDBLogVolumeName, that.rocksDBLogVolumeName)
        && Objects.equals(raftLogVolumeName, that.raftLogVolumeName)
        && Objects.equals(logTailer, that.logTailer)
        && Objects.equals(recoverFailover, that.recoverFailover)
        && Objects.equals(failover, that.failover)
        && Objects.equals(mountClusterClientSecret, that.mountClusterClientSecret)
        && Objects.equals(evictLeaderTimeout, that.evictLeaderTimeout)
        && Objects.equals(waitLeaderTransferBackTimeout, that.waitLeaderTransferBackTimeout)
        && Objects.equals(storeLabels, that.storeLabels)
        && Objects.equals(enableNamedStatusPort, that.enableNamedStatusPort)
        && Objects.equals(scalePolicy, that.scalePolicy)
        && Objects.equals(spareVolReplaceReplicas, that.spareVolReplaceReplicas);
  }

  @Override
  public int hashCode() {
    return Objects.hash(super.hashCode(), baseImage, privileged, maxFailoverCount, storageClassName, volumeAttributesClassName, storageVolumes, dataSubDir, config, separateRocksDBLog, separateRaftLog, rocksDBLogVolumeName, raftLogVolumeName, logTailer, recoverFailover, failover, mountClusterClientSecret, evictLeaderTimeout, waitLeaderTransferBackTimeout, storeLabels, enableNamedStatusPort, scalePolicy, spareVolReplaceReplicas);
  }
}
