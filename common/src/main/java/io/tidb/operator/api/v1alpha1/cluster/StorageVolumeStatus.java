package io.tidb.operator.api.v1alpha1.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.Objects;

/** Observed state of one volume of a component. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class StorageVolumeStatus {

  @JsonProperty("name")
  @JsonPropertyDescription("Volume name.")
  private String name;

  @JsonProperty("boundCount")
  @JsonPropertyDescription("PVCs bound.")
  private Integer boundCount;

  @JsonProperty("currentCount")
  @JsonPropertyDescription("PVCs at the current capacity and StorageClass.")
  private Integer currentCount;

  @JsonProperty("resizedCount")
  @JsonPropertyDescription("PVCs resized.")
  private Integer resizedCount;

  @JsonProperty("modifiedCount")
  @JsonPropertyDescription("PVCs at the desired capacity and StorageClass.")
  private Integer modifiedCount;

  @JsonProperty("currentCapacity")
  @JsonPropertyDescription("Current capacity.")
  private Quantity currentCapacity;

  @JsonProperty("resizedCapacity")
  @JsonPropertyDescription("Capacity after resizing.")
  private Quantity resizedCapacity;

  @JsonProperty("modifiedCapacity")
  @JsonPropertyDescription("Desired capacity.")
  private Quantity modifiedCapacity;

  @JsonProperty("currentStorageClass")
  @JsonPropertyDescription("Current StorageClass.")
  private String currentStorageClass;

  @JsonProperty("modifiedStorageClass")
  @JsonPropertyDescription("Desired StorageClass.")
  private String modifiedStorageClass;

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }

  public Integer getBoundCount() {
    return boundCount;
  }

  public void setBoundCount(Integer boundCount) {
    this.boundCount = boundCount;
  }

  public Integer getCurrentCount() {
    return currentCount;
  }

  public void setCurrentCount(Integer currentCount) {
    this.currentCount = currentCount;
  }

  public Integer getResizedCount() {
    return resizedCount;
  }

  public void setResizedCount(Integer resizedCount) {
    this.resizedCount = resizedCount;
  }

  public Integer getModifiedCount() {
    return modifiedCount;
  }

  public void setModifiedCount(Integer modifiedCount) {
    this.modifiedCount = modifiedCount;
  }

  public Quantity getCurrentCapacity() {
    return currentCapacity;
  }

  public void setCurrentCapacity(Quantity currentCapacity) {
    this.currentCapacity = currentCapacity;
  }

  public Quantity getResizedCapacity() {
    return resizedCapacity;
  }

  public void setResizedCapacity(Quantity resizedCapacity) {
    this.resizedCapacity = resizedCapacity;
  }

  public Quantity getModifiedCapacity() {
    return modifiedCapacity;
  }

  public void setModifiedCapacity(Quantity modifiedCapacity) {
    this.modifiedCapacity = modifiedCapacity;
  }

  public String getCurrentStorageClass() {
    return currentStorageClass;
  }

  public void setCurrentStorageClass(String currentStorageClass) {
    this.currentStorageClass = currentStorageClass;
  }

  public String getModifiedStorageClass() {
    return modifiedStorageClass;
  }

  public void setModifiedStorageClass(String modifiedStorageClass) {
    this.modifiedStorageClass = modifiedStorageClass;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    StorageVolumeStatus that = (StorageVolumeStatus) o;
    return Objects.equals(name, that.name)
        && Objects.equals(boundCount, that.boundCount)
        && Objects.equals(currentCount, that.currentCount)
        && Objects.equals(resizedCount, that.resizedCount)
        && Objects.equals(modifiedCount, that.modifiedCount)
        && Objects.equals(currentCapacity, that.currentCapacity)
        && Objects.equals(resizedCapacity, that.resizedCapacity)
        && Objects.equals(modifiedCapacity, that.modifiedCapacity)
        && Objects.equals(currentStorageClass, that.currentStorageClass)
        && Objects.equals(modifiedStorageClass, that.modifiedStorageClass);
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, boundCount, currentCount, resizedCount, modifiedCount, currentCapacity, resizedCapacity, modifiedCapacity, currentStorageClass, modifiedStorageClass);
  }
}
