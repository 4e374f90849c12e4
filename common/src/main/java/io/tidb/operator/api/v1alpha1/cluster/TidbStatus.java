package io.tidb.operator.api.v1alpha1.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.Map;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** Observed state of TiDB. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode(callSuper = true)
public class TidbStatus extends ComponentStatus {

  @JsonProperty("members")
  @JsonPropertyDescription("Members, by name.")
  private Map<String, TidbMember> members;

  @JsonProperty("failureMembers")
  @JsonPropertyDescription("Failed-over members, by pod name.")
  private Map<String, TidbFailureMember> failureMembers;

  @JsonProperty("passwordInitialized")
  @JsonPropertyDescription("The root password was initialised.")
  private Boolean passwordInitialized;

  @JsonProperty("resignDDLOwnerRetryCount")
  @JsonPropertyDescription("Attempts to resign the DDL owner during an upgrade.")
  private Integer resignDDLOwnerRetryCount;
}
