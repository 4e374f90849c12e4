package io.tidb.operator.api.v1alpha1.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** An extra persistent volume of a component. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode
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
}
