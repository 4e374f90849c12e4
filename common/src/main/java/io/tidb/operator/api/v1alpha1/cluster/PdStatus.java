package io.tidb.operator.api.v1alpha1.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.Map;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** Observed state of PD. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode(callSuper = true)
public class PdStatus extends ComponentStatus {

  @JsonProperty("members")
  @JsonPropertyDescription("Members of this TidbCluster, by name.")
  private Map<String, PdMember> members;

  @JsonProperty("peerMembers")
  @JsonPropertyDescription("Members of other TidbClusters in the same PD cluster, by name.")
  private Map<String, PdMember> peerMembers;

  @JsonProperty("leader")
  @JsonPropertyDescription("The PD leader.")
  private PdMember leader;

  @JsonProperty("failureMembers")
  @JsonPropertyDescription("Failed-over members, by pod name.")
  private Map<String, PdFailureMember> failureMembers;

  @JsonProperty("unjoinedMembers")
  @JsonPropertyDescription("Pods whose member has not joined, by pod name.")
  private Map<String, UnjoinedMember> unjoinedMembers;
}
