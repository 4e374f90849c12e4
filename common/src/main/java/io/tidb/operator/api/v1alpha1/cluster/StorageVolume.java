package io.tidb.operator.api.v1alpha1.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import java.util.Objects;

/** An extra persistent volume of a component. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class StorageVolume {

  @JsonProperty("name")
  @JsonPropertyDescription("Volume name; also names the PVC.")
  @Required
  private String name;

  @JsonProperty("storageClassName")
  @JsonPropertyDescription("StorageClass of the volume.")
  private String storageClassName;

  @JsonProperty("storageSize")
  @JsonPropertyDescription("Size of the volume, a Kubernetes quantity such as 10Gi.")
  @Required
  @Pattern("^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$")
  private String storageSize;

  @JsonProperty("mountPath")
  @JsonPropertyDescription("Where the volume is mounted in the main container.")
  private String mountPath;

  @JsonProperty("volumeAttributesClassName")
  @JsonPropertyDescription("VolumeAttributesClass of the data volume.")
  private String volumeAttributesClassName;

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }

  public String getStorageClassName() {
    return storageClassName;
  }

  public void setStorageClassName(String storageClassName) {
    this.storageClassName = storageClassName;
  }

  public String getStorageSize() {
    return storageSize;
  }

  public void setStorageSize(String storageSize) {
    this.storageSize = storageSize;
  }

  public String getMountPath() {
    return mountPath;
  }

  public void setMountPath(String mountPath) {
    this.mountPath = mountPath;
  }

  public String getVolumeAttributesClassName() {
    return volumeAttributesClassName;
  }

  public void setVolumeAttributesClassName(String volumeAttributesClassName) {
    this.volumeAttributesClassName = volumeAttributesClassName;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    StorageVolume that = (StorageVolume) o;
    return Objects.equals(name, that.name)
        && Objects.equals(storageClassName, that.storageClassName)
        && Objects.equals(storageSize, that.storageSize)
        && Objects.equals(mountPath, that.mountPath)
        && Objects.equals(volumeAttributesClassName, that.volumeAttributesClassName);
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, storageClassName, storageSize, mountPath, volumeAttributesClassName);
  }
}
