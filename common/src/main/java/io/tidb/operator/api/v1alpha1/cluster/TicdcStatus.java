package io.tidb.operator.api.v1alpha1.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.Map;
import java.util.Objects;

/** Observed state of TiCDC. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class TicdcStatus extends ComponentStatus {

  @JsonProperty("captures")
  @JsonPropertyDescription("Captures, by pod name.")
  private Map<String, TicdcCapture> captures;

  public Map<String, TicdcCapture> getCaptures() {
    return captures;
  }

  public void setCaptures(Map<String, TicdcCapture> captures) {
    this.captures = captures;
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
    TicdcStatus that = (TicdcStatus) o;
    return Objects.equals(captures, that.captures);
  }

  @Override
  public int hashCode() {
    return Objects.hash(super.hashCode(), captures);
  }
}
