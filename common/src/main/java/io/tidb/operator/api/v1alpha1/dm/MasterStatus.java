package io.tidb.operator.api.v1alpha1.dm;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.tidb.operator.api.v1alpha1.cluster.UnjoinedMember;
import java.util.Map;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** Observed state of dm-master. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode(callSuper = true)
public class MasterStatus extends DmMemberStatus {

  @JsonProperty("members")
  @JsonPropertyDescription("Members the DM master API reports, by name.")
  private Map<String, MasterMember> members;

  @JsonProperty("leader")
  @JsonPropertyDescription("The current leader.")
  private MasterMember leader;

  @JsonProperty("failureMembers")
  @JsonPropertyDescription("Members failed over, by pod name.")
  private Map<String, MasterFailureMember> failureMembers;

  @JsonProperty("unjoinedMembers")
  @JsonPropertyDescription("Pods that run but are not members, by pod name.")
  private Map<String, UnjoinedMember> unjoinedMembers;
}
