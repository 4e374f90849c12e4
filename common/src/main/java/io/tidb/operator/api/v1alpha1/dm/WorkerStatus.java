package io.tidb.operator.api.v1alpha1.dm;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.Map;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** Observed state of dm-worker. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode(callSuper = true)
public class WorkerStatus extends DmMemberStatus {

  @JsonProperty("members")
  @JsonPropertyDescription("Workers the DM master API reports, by name.")
  private Map<String, WorkerMember> members;

  @JsonProperty("failureMembers")
  @JsonPropertyDescription("Workers failed over, by pod name.")
  private Map<String, WorkerFailureMember> failureMembers;

  @JsonProperty("failoverUID")
  @JsonPropertyDescription("Set spec.worker.failover.recoverByUID to this value to remove the failover pods once.")
  private String failoverUID;
}
