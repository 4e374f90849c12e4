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
import io.fabric8.generator.annotation.Required;
import java.util.List;
import java.util.Objects;

/** One PD microservice (tso or scheduling). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class PdMsSpec extends MemberSpec {

  @JsonProperty("name")
  @JsonPropertyDescription("Microservice name: tso or scheduling.")
  @Required
  private String name;

  @JsonProperty("baseImage")
  @JsonPropertyDescription("Image without tag; the image is baseImage:version.")
  @Default("pingcap/pd")
  private String baseImage;

  @JsonProperty("service")
  @JsonPropertyDescription("Service of the microservice.")
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

  @JsonProperty("config")
  @JsonPropertyDescription("Free-form configuration file, rendered to TOML. Either a map or a TOML string.")
  @SchemaFrom(type = JsonNode.class)
  private ComponentConfig config;

  @JsonProperty("tlsClientSecretName")
  @JsonPropertyDescription("Secret holding the TLS client certificate used to reach the cluster.")
  private String tlsClientSecretName;

  @JsonProperty("mountClusterClientSecret")
  @JsonPropertyDescription("Mount the cluster client TLS secret into the pods (for pd-ctl/tikv-ctl).")
  private Boolean mountClusterClientSecret;

  @JsonProperty("startTimeout")
  @JsonPropertyDescription("Seconds the start script waits for the microservice to start.")
  @Default("30")
  @Min(0)
  private Integer startTimeout;

  @JsonProperty("startUpScriptVersion")
  @JsonPropertyDescription("Start script version: '' or 'v1'.")
  @Pattern("^(v1)?$")
  private String startUpScriptVersion;

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }

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

  public Boolean getMountClusterClientSecret() {
    return mountClusterClientSecret;
  }

  public void setMountClusterClientSecret(Boolean mountClusterClientSecret) {
    this.mountClusterClientSecret = mountClusterClientSecret;
  }

  public Integer getStartTimeout() {
    return startTimeout;
  }

  public void setStartTimeout(Integer startTimeout) {
    this.startTimeout = startTimeout;
  }

  public String getStartUpScriptVersion() {
    return startUpScriptVersion;
  }

  public void setStartUpScriptVersion(String startUpScriptVersion) {
    this.startUpScriptVersion = startUpScriptVersion;
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
    PdMsSpec that = (PdMsSpec) o;
    return Objects.equals(name, that.name)
        && Objects.equals(baseImage, that.baseImage)
        && Objects.equals(service, that.service)
        && Objects.equals(maxFailoverCount, that.maxFailoverCount)
        && Objects.equals(storageClassName, that.storageClassName)
        && Objects.equals(volumeAttributesClassName, that.volumeAttributesClassName)
        && Objects.equals(storageVolumes, that.storageVolumes)
        && Objects.equals(config, that.config)
        && Objects.equals(tlsClientSecretName, that.tlsClientSecretName)
        && Objects.equals(mountClusterClientSecret, that.mountClusterClientSecret)
        && Objects.equals(startTimeout, that.startTimeout)
        && Objects.equals(startUpScriptVersion, that.startUpScriptVersion);
  }

  @Override
  public int hashCode() {
    return Objects.hash(super.hashCode(), name, baseImage, service, maxFailoverCount, storageClassName, volumeAttributesClassName, storageVolumes, config, tlsClientSecretName, mountClusterClientSecret, startTimeout, startUpScriptVersion);
  }
}
