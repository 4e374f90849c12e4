package io.tidb.operator.api.v1alpha1.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import java.util.Objects;

/** A persistent volume of TiFlash. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class StorageClaim {

  @JsonProperty("resources")
  @JsonPropertyDescription("Size of the volume in requests.storage.")
  private ResourceRequirements resources;

  @JsonProperty("storageClassName")
  @JsonPropertyDescription("StorageClass of the volume.")
  private String storageClassName;

  @JsonProperty("volumeAttributesClassName")
  @JsonPropertyDescription("VolumeAttributesClass of the data volume.")
  private String volumeAttributesClassName;

  public ResourceRequirements getResources() {
    return resources;
  }

  public void setResources(ResourceRequirements resources) {
    this.resources = resources;
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

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    StorageClaim that = (StorageClaim) o;
    return Objects.equals(resources, that.resources)
        && Objects.equals(storageClassName, that.storageClassName)
        && Objects.equals(volumeAttributesClassName, that.volumeAttributesClassName);
  }

  @Override
  public int hashCode() {
    return Objects.hash(resources, storageClassName, volumeAttributesClassName);
  }
}
