package io.tidb.operator.api.v1alpha1.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.Map;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** A PD member the operator failed over. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode
public class PdFailureMember {

  @JsonProperty("podName")
  @JsonPropertyDescription("Pod of the failed member.")
  private String podName;

  @JsonProperty("memberID")
  @JsonPropertyDescription("PD member ID.")
  private String memberID;

  @JsonProperty("pvcUID")
  @JsonPropertyDescription("Deprecated: UID of the member's PVC.")
  private String pvcUID;

  @JsonProperty("pvcUIDSet")
  @JsonPropertyDescription("UIDs of the member's PVCs.")
  private Map<String, Map<String, String>> pvcUIDSet;

  @JsonProperty("memberDeleted")
  @JsonPropertyDescription("The member was deleted from PD.")
  private Boolean memberDeleted;

  @JsonProperty("hostDown")
  @JsonPropertyDescription("The member's node is down.")
  private Boolean hostDown;

  @JsonProperty("createdAt")
  @JsonPropertyDescription("When the failure was recorded (RFC 3339).")
  private String createdAt;
}
