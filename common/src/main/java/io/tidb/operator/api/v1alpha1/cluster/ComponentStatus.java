package io.tidb.operator.api.v1alpha1.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.apps.StatefulSetStatus;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** Observed state shared by every component. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public abstract class ComponentStatus {

  @JsonProperty("phase")
  @JsonPropertyDescription("Normal, Upgrade, Scale or Suspend.")
  private String phase;

  @JsonProperty("synced")
  @JsonPropertyDescription("The operator reached the component and its status is current.")
  private Boolean synced;

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

  @JsonProperty("volReplaceInProgress")
  @JsonPropertyDescription("A volume replacement is running.")
  private Boolean volReplaceInProgress;

  public String getPhase() {
    return phase;
  }

  public void setPhase(String phase) {
    this.phase = phase;
  }

  public Boolean getSynced() {
    return synced;
  }

  public void setSynced(Boolean synced) {
    this.synced = synced;
  }

  public StatefulSetStatus getStatefulSet() {
    return statefulSet;
  }

  public void setStatefulSet(StatefulSetStatus statefulSet) {
    this.statefulSet = statefulSet;
  }

  public String getImage() {
    return image;
  }

  public void setImage(String image) {
    this.image = image;
  }

  public Map<String, StorageVolumeStatus> getVolumes() {
    return volumes;
  }

  public void setVolumes(Map<String, StorageVolumeStatus> volumes) {
    this.volumes = volumes;
  }

  public List<Condition> getConditions() {
    return conditions;
  }

  public void setConditions(List<Condition> conditions) {
    this.conditions = conditions;
  }

  public Boolean getVolReplaceInProgress() {
    return volReplaceInProgress;
  }

  public void setVolReplaceInProgress(Boolean volReplaceInProgress) {
    this.volReplaceInProgress = volReplaceInProgress;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    ComponentStatus that = (ComponentStatus) o;
    return Objects.equals(phase, that.phase)
        && Objects.equals(synced, that.synced)
        && Objects.equals(statefulSet, that.statefulSet)
        && Objects.equals(image, that.image)
        && Objects.equals(volumes, that.volumes)
        && Objects.equals(conditions, that.conditions)
        && Objects.equals(volReplaceInProgress, that.volReplaceInProgress);
  }

  @Override
  public int hashCode() {
    return Objects.hash(phase, synced, statefulSet, image, volumes, conditions, volReplaceInProgress);
  }
}
