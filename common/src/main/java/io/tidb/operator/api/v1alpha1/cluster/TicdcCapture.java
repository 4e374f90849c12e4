package io.tidb.operator.api.v1alpha1.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.Objects;

/** A TiCDC capture. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class TicdcCapture {

  @JsonProperty("podName")
  @JsonPropertyDescription("Pod of the capture.")
  private String podName;

  @JsonProperty("id")
  @JsonPropertyDescription("Capture ID.")
  private String id;

  @JsonProperty("version")
  @JsonPropertyDescription("TiCDC version.")
  private String version;

  @JsonProperty("isOwner")
  @JsonPropertyDescription("The capture is the owner.")
  private Boolean isOwner;

  @JsonProperty("ready")
  @JsonPropertyDescription("The capture is ready.")
  private Boolean ready;

  public String getPodName() {
    return podName;
  }

  public void setPodName(String podName) {
    this.podName = podName;
  }

  public String getId() {
    return id;
  }

  public void setId(String id) {
    this.id = id;
  }

  public String getVersion() {
    return version;
  }

  public void setVersion(String version) {
    this.version = version;
  }

  public Boolean getIsOwner() {
    return isOwner;
  }

  public void setIsOwner(Boolean isOwner) {
    this.isOwner = isOwner;
  }

  public Boolean getReady() {
    return ready;
  }

  public void setReady(Boolean ready) {
    this.ready = ready;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    TicdcCapture that = (TicdcCapture) o;
    return Objects.equals(podName, that.podName)
        && Objects.equals(id, that.id)
        && Objects.equals(version, that.version)
        && Objects.equals(isOwner, that.isOwner)
        && Objects.equals(ready, that.ready);
  }

  @Override
  public int hashCode() {
    return Objects.hash(podName, id, version, isOwner, ready);
  }
}
