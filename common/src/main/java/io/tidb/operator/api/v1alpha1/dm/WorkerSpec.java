package io.tidb.operator.api.v1alpha1.dm;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.tidb.operator.api.v1alpha1.cluster.Failover;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** The dm-worker members: each runs the migration of the upstream source it is bound to. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode(callSuper = true)
public class WorkerSpec extends DmMemberSpec {

  @JsonProperty("recoverFailover")
  @JsonPropertyDescription("Remove the pods created by failover once the failed members are healthy again.")
  private Boolean recoverFailover;

  @JsonProperty("failover")
  @JsonPropertyDescription("Failover settings.")
  private Failover failover;
}
