package io.tidb.operator.api.v1alpha1.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import io.fabric8.generator.annotation.Default;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** The TiProxy SQL proxy component. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class TiproxySpec extends MemberSpec {

  @JsonProperty("baseImage")
  @JsonPropertyDescription("Image without tag; the image is baseImage:version.")
  @Default("pingcap/tiproxy")
  private String baseImage;

  @JsonProperty("sslEnableTiDB")
  @JsonPropertyDescription("Use TLS between TiProxy and TiDB.")
  private Boolean sslEnableTiDB;

  @JsonProperty("tlsClientSecretName")
  @JsonPropertyDescription("Secret holding the TLS client certificate used to reach the cluster.")
  private String tlsClientSecretName;

  @JsonProperty("certLayout")
  @JsonPropertyDescription("Layout of the TLS certificates.")
  private String certLayout;

  @JsonProperty("config")
  @JsonPropertyDescription("Free-form configuration file, rendered to TOML. Either a map or a TOML string.")
  @SchemaFrom(type = JsonNode.class)
  private ComponentConfig config;

  @JsonProperty("storageVolumes")
  @JsonPropertyDescription("Extra persistent volumes mounted into the main container.")
  private List<StorageVolume> storageVolumes;

  @JsonProperty("storageClassName")
  @JsonPropertyDescription("StorageClass of the data volume; the cluster default when empty.")
  private String storageClassName;

  @JsonProperty("volumeAttributesClassName")
  @JsonPropertyDescription("VolumeAttributesClass of the data volume.")
  private String volumeAttributesClassName;

  @JsonProperty("serverLabels")
  @JsonPropertyDescription("Labels reported to PD for this server.")
  private Map<String, String> serverLabels;

  public String getBaseImage() {
    return baseImage;
  }

  public void setBaseImage(String baseImage) {
    this.baseImage = baseImage;
  }

  public Boolean getSslEnableTiDB() {
    return sslEnableTiDB;
  }

  public void setSslEnableTiDB(Boolean sslEnableTiDB) {
    this.sslEnableTiDB = sslEnableTiDB;
  }

  public String getTlsClientSecretName() {
    return tlsClientSecretName;
  }

  public void setTlsClientSecretName(String tlsClientSecretName) {
    this.tlsClientSecretName = tlsClientSecretName;
  }

  public String getCertLayout() {
    return certLayout;
  }

  public void setCertLayout(String certLayout) {
    this.certLayout = certLayout;
  }

  public ComponentConfig getConfig() {
    return config;
  }

  public void setConfig(ComponentConfig config) {
    this.config = config;
  }

  public List<StorageVolume> getStorageVolumes() {
    return storageVolumes;
  }

  public void setStorageVolumes(List<StorageVolume> storageVolumes) {
    this.storageVolumes = storageVolumes;
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

  public Map<String, String> getServerLabels() {
    return serverLabels;
  }

  public void setServerLabels(Map<String, String> serverLabels) {
    this.serverLabels = serverLabels;
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
    TiproxySpec that = (TiproxySpec) o;
    return Objects.equals(baseImage, that.baseImage)
        && Objects.equals(sslEnableTiDB, that.sslEnableTiDB)
        && Objects.equals(tlsClientSecretName, that.tlsClientSecretName)
        && Objects.equals(certLayout, that.certLayout)
        && Objects.equals(config, that.config)
        && Objects.equals(storageVolumes, that.storageVolumes)
        && Objects.equals(storageClassName, that.storageClassName)
        && Objects.equals(volumeAttributesClassName, that.volumeAttributesClassName)
        && Objects.equals(serverLabels, that.serverLabels);
  }

  @Override
  public int hashCode() {
    return Objects.hash(super.hashCode(), baseImage, sslEnableTiDB, tlsClientSecretName, certLayout, config, storageVolumes, storageClassName, volumeAttributesClassName, serverLabels);
  }
}
