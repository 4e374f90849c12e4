package io.tidb.operator.api.v1alpha1.cluster;

import io.tidb.operator.api.v1alpha1.shared.ServiceSpec;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.ValidationRule;
import java.util.List;
import java.util.Objects;

/** The PD (placement driver) component. */
@ValidationRule(value = "has(self.requests) && 'storage' in self.requests", message = "the data volume size is required", fieldPath = ".requests", reason = "FieldValueRequired")
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class PdSpec extends MemberSpec {

  @JsonProperty("baseImage")
  @JsonPropertyDescription("Image without tag; the image is baseImage:version.")
  @Default("pingcap/pd")
  private String baseImage;

  @JsonProperty("service")
  @JsonPropertyDescription("Client Service of PD.")
  private ServiceSpec service;

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
  private String dataSubDir;

  @JsonProperty("config")
  @JsonPropertyDescription("Free-form configuration file, rendered to TOML. Either a map or a TOML string.")
  @SchemaFrom(type = JsonNode.class)
  private ComponentConfig config;

  @JsonProperty("tlsClientSecretName")
  @JsonPropertyDescription("Secret holding the TLS client certificate used to reach the cluster.")
  private String tlsClientSecretName;

  @JsonProperty("enableDashboardInternalProxy")
  @JsonPropertyDescription("Deprecated: use config dashboard.internal-proxy.")
  private Boolean enableDashboardInternalProxy;

  @JsonProperty("startTimeout")
  @JsonPropertyDescription("Seconds the start script waits for PD to start.")
  @Default("30")
  @Min(0)
  private Integer startTimeout;

  @JsonProperty("initWaitTime")
  @JsonPropertyDescription("Seconds the first PD member waits for the others before bootstrapping.")
  @Default("0")
  @Min(0)
  private Integer initWaitTime;

  @JsonProperty("mode")
  @JsonPropertyDescription("PD mode: '' (plain) or 'ms' (microservices).")
  @Pattern("^(ms)?$")
  private String mode;

  @JsonProperty("startUpScriptVersion")
  @JsonPropertyDescription("Start script version of PD: '' or 'v1'.")
  @Pattern("^(v1)?$")
  private String startUpScriptVersion;

  @JsonProperty("mountClusterClientSecret")
  @JsonPropertyDescription("Mount the cluster client TLS secret into the pods (for pd-ctl/tikv-ctl).")
  private Boolean mountClusterClientSecret;

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

  public ServiceSpec getService() {
    return service;
  }

  public void setService(ServiceSpec service) {
    this.service = service;
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

  public String getTlsClientSecretName() {
    return tlsClientSecretName;
  }

  public void setTlsClientSecretName(String tlsClientSecretName) {
    this.tlsClientSecretName = tlsClientSecretName;
  }

  public Boolean getEnableDashboardInternalProxy() {
    return enableDashboardInternalProxy;
  }

  public void setEnableDashboardInternalProxy(Boolean enableDashboardInternalProxy) {
    this.enableDashboardInternalProxy = enableDashboardInternalProxy;
  }

  public Integer getStartTimeout() {
    return startTimeout;
  }

  public void setStartTimeout(Integer startTimeout) {
    this.startTimeout = startTimeout;
  }

  public Integer getInitWaitTime() {
    return initWaitTime;
  }

  public void setInitWaitTime(Integer initWaitTime) {
    this.initWaitTime = initWaitTime;
  }

  public String getMode() {
    return mode;
  }

  public void setMode(String mode) {
    this.mode = mode;
  }

  public String getStartUpScriptVersion() {
    return startUpScriptVersion;
  }

  public void setStartUpScriptVersion(String startUpScriptVersion) {
    this.startUpScriptVersion = startUpScriptVersion;
  }

  public Boolean getMountClusterClientSecret() {
    return mountClusterClientSecret;
  }

  public void setMountClusterClientSecret(Boolean mountClusterClientSecret) {
    this.mountClusterClientSecret = mountClusterClientSecret;
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
    PdSpec that = (PdSpec) o;
    return Objects.equals(baseImage, that.baseImage)
        && Objects.equals(service, that.service)
        && Objects.equals(maxFailoverCount, that.maxFailoverCount)
        && Objects.equals(storageClassName, that.storageClassName)
        && Objects.equals(volumeAttributesClassName, that.volumeAttributesClassName)
        && Objects.equals(storageVolumes, that.storageVolumes)
        && Objects.equals(dataSubDir, that.dataSubDir)
        && Objects.equals(config, that.config)
        && Objects.equals(tlsClientSecretName, that.tlsClientSecretName)
        && Objects.equals(enableDashboardInternalProxy, that.enableDashboardInternalProxy)
        && Objects.equals(startTimeout, that.startTimeout)
        && Objects.equals(initWaitTime, that.initWaitTime)
        && Objects.equals(mode, that.mode)
        && Objects.equals(startUpScriptVersion, that.startUpScriptVersion)
        && Objects.equals(mountClusterClientSecret, that.mountClusterClientSecret)
        && Objects.equals(spareVolReplaceReplicas, that.spareVolReplaceReplicas);
  }

  @Override
  public int hashCode() {
    return Objects.hash(super.hashCode(), baseImage, service, maxFailoverCount, storageClassName, volumeAttributesClassName, storageVolumes, dataSubDir, config, tlsClientSecretName, enableDashboardInternalProxy, startTimeout, initWaitTime, mode, startUpScriptVersion, mountClusterClientSecret, spareVolReplaceReplicas);
  }
}
