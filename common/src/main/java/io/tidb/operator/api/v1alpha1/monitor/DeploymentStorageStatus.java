package io.tidb.operator.api.v1alpha1.monitor;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** Storage of a monitor created before StatefulSets (upstream 1.0 Deployments). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode
public class DeploymentStorageStatus {

  @JsonProperty("pvName")
  @JsonPropertyDescription("The PersistentVolume of that Deployment.")
  private String pvName;
}
