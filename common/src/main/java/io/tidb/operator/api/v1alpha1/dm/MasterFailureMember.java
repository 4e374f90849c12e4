package io.tidb.operator.api.v1alpha1.dm;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** A dm-master member the operator failed over. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode
public class MasterFailureMember {

  @JsonProperty("podName")
  @JsonPropertyDescription("Pod of the failed member.")
  private String podName;

  @JsonProperty("memberID")
  @JsonPropertyDescription("Member ID of the failed member.")
  private String memberID;

  @JsonProperty("pvcUID")
  @JsonPropertyDescription("UID of the failed member's data PVC.")
  private String pvcUID;

  @JsonProperty("memberDeleted")
  @JsonPropertyDescription("The member was deleted through the DM master API.")
  private Boolean memberDeleted;

  @JsonProperty("createdAt")
  @JsonPropertyDescription("When the failure was recorded (RFC 3339).")
  private String createdAt;
}
