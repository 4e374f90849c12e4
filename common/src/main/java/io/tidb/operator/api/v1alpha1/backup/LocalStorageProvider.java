package io.tidb.operator.api.v1alpha1.backup;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** A volume mounted into the Job pod, as upstream's LocalStorageProvider. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode
public class LocalStorageProvider {

  @JsonProperty("volume")
  @JsonPropertyDescription("The volume (e.g. nfs, hostPath, persistentVolumeClaim). Required.")
  @Required
  private Volume volume;

  @JsonProperty("volumeMount")
  @JsonPropertyDescription("Where the volume is mounted; its name must be the volume's. Required.")
  @Required
  private VolumeMount volumeMount;

  @JsonProperty("prefix")
  @JsonPropertyDescription("The folder under the mount path.")
  private String prefix;
}
