package io.tidb.operator.api.v1alpha1.dm;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.apps.StatefulSetStatus;
import io.tidb.operator.api.v1alpha1.cluster.StorageVolumeStatus;
import java.util.List;
import java.util.Map;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** Observed state dm-master and dm-worker share. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode
public abstract class DmMemberStatus {

  @JsonProperty("synced")
  @JsonPropertyDescription("The operator reached the component and its status is current.")
  private Boolean synced;

  @JsonProperty("phase")
  @JsonPropertyDescription("Normal, Upgrade, Scale or Suspend.")
  private String phase;

  @JsonProperty("statefulSet")
  @JsonPropertyDescription("Status of the component's StatefulSet.")
  private StatefulSetStatus statefulSet;

  @JsonProperty("image")
  @JsonPropertyDescription("Image the component runs.")
  private String image;

  @JsonProperty("volumes")
  @JsonPropertyDescription("Volumes of the component, by name.")
  private Map<String, StorageVolumeStatus> volumes;

  @JsonProperty("conditions")
  @JsonPropertyDescription("Component conditions.")
  private List<Condition> conditions;
}
