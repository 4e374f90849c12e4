package io.tidb.operator.api.v1alpha1.dm;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** The dm-master members: they elect a leader, hold the task and source metadata and schedule workers. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode(callSuper = true)
public class MasterSpec extends DmMemberSpec {

  @JsonProperty("service")
  @JsonPropertyDescription("Client Service of dm-master.")
  private MasterServiceSpec service;

  @JsonProperty("startUpScriptVersion")
  @JsonPropertyDescription("Start script version of dm-master: empty or v1.")
  private String startUpScriptVersion;
}
