package io.tidb.operator.api.v1alpha1.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.Map;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** A PD pod whose member has not joined the cluster. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode
public class UnjoinedMember {

  @JsonProperty("podName")
  @JsonPropertyDescription("Pod name.")
  private String podName;

  @JsonProperty("pvcUID")
  @JsonPropertyDescription("Deprecated: UID of the pod's PVC.")
  private String pvcUID;

  @JsonProperty("pvcUIDSet")
  @JsonPropertyDescription("UIDs of the pod's PVCs.")
  private Map<String, Map<String, String>> pvcUIDSet;

  @JsonProperty("createdAt")
  @JsonPropertyDescription("When it was first seen (RFC 3339).")
  private String createdAt;
}
