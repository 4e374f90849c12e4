package io.tidb.operator.api.v1alpha1.monitor;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.apps.StatefulSetStatus;
import java.util.List;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** What the operator observed of a TidbMonitor: its StatefulSet, its clusters and conditions. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode
public class TidbMonitorStatus {

  @JsonProperty("observedGeneration")
  @JsonPropertyDescription("The generation this status was computed from.")
  private Long observedGeneration;

  @JsonProperty("conditions")
  @JsonPropertyDescription("Valid, ClustersFound and Ready.")
  private List<Condition> conditions;

  @JsonProperty("deploymentStorageStatus")
  @JsonPropertyDescription("Storage of a monitor created as a Deployment by upstream 1.0.")
  private DeploymentStorageStatus deploymentStorageStatus;

  @JsonProperty("statefulSet")
  @JsonPropertyDescription("Status of the first shard's StatefulSet.")
  private StatefulSetStatus statefulSet;

  @JsonProperty("clusters")
  @JsonPropertyDescription("The referenced clusters found and monitored, as namespace/name, TidbClusters then DMClusters (dm/namespace/name).")
  private List<String> clusters;

  @JsonProperty("prometheus")
  @JsonPropertyDescription("Phase of Prometheus: Pending (pods not ready) or Running.")
  private String prometheus;

  @JsonProperty("grafana")
  @JsonPropertyDescription("Phase of Grafana: Pending, Running, or absent when spec.grafana is not set.")
  private String grafana;
}
