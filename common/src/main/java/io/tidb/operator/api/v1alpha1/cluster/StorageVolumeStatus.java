package io.tidb.operator.api.v1alpha1.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.kubernetes.api.model.Quantity;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** Observed state of one volume of a component. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode
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
}
