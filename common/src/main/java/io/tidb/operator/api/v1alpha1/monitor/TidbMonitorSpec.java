package io.tidb.operator.api.v1alpha1.monitor;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.Volume;
import io.tidb.operator.api.v1alpha1.cluster.PreservedList;
import io.tidb.operator.api.v1alpha1.shared.TidbClusterRef;
import java.util.List;
import java.util.Map;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** The desired monitoring stack: which clusters, and the Prometheus/Grafana pod. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode
public class TidbMonitorSpec {

  @JsonProperty("clusters")
  @JsonPropertyDescription("The TidbClusters to monitor; each namespace defaults to the monitor's.")
  private List<TidbClusterRef> clusters;

  @JsonProperty("prometheus")
  @JsonPropertyDescription("The Prometheus container.")
  @Required
  private PrometheusSpec prometheus;

  @JsonProperty("grafana")
  @JsonPropertyDescription("The Grafana container; no Grafana when absent.")
  private GrafanaSpec grafana;

  @JsonProperty("reloader")
  @JsonPropertyDescription("The alert rules reloader container.")
  @Required
  private ReloaderSpec reloader;

  @JsonProperty("initializer")
  @JsonPropertyDescription("The dashboards and rules initializer (init container).")
  @Required
  private InitializerSpec initializer;

  @JsonProperty("dm")
  @JsonPropertyDescription("DM clusters to monitor.")
  private DmMonitorSpec dm;

  @JsonProperty("thanos")
  @JsonPropertyDescription("A Thanos sidecar.")
  private ThanosSpec thanos;

  @JsonProperty("prometheusReloader")
  @JsonPropertyDescription("The prometheus-config-reloader sidecar.")
  private PrometheusReloaderSpec prometheusReloader;

  @JsonProperty("pvReclaimPolicy")
  @JsonPropertyDescription("Reclaim policy of the data volume: Retain (default) or Delete.")
  @Pattern("^(Retain|Delete|Recycle)?$")
  private String pvReclaimPolicy;

  @JsonProperty("imagePullPolicy")
  @JsonPropertyDescription("Image pull policy of every container unless the container sets its own.")
  @Pattern("^(Always|Never|IfNotPresent)?$")
  private String imagePullPolicy;

  @JsonProperty("imagePullSecrets")
  @JsonPropertyDescription("Secrets used to pull images.")
  private List<LocalObjectReference> imagePullSecrets;

  @JsonProperty("persistent")
  @JsonPropertyDescription("Keep the data on a PersistentVolumeClaim (spec.storage) instead of an emptyDir.")
  private Boolean persistent;

  @JsonProperty("storageClassName")
  @JsonPropertyDescription("StorageClass of the data volume.")
  private String storageClassName;

  @JsonProperty("storage")
  @JsonPropertyDescription("Size of the data volume, e.g. 10Gi; required when persistent.")
  private String storage;

  @JsonProperty("nodeSelector")
  @JsonPropertyDescription("Node labels the pod must match.")
  private Map<String, String> nodeSelector;

  @JsonProperty("annotations")
  @JsonPropertyDescription("Extra annotations of the StatefulSet, the pod and the Services.")
  private Map<String, String> annotations;

  @JsonProperty("labels")
  @JsonPropertyDescription("Extra labels of the pod and the Services.")
  private Map<String, String> labels;

  @JsonProperty("tolerations")
  @JsonPropertyDescription("Pod tolerations.")
  private List<Toleration> tolerations;

  @JsonProperty("kubePrometheusURL")
  @JsonPropertyDescription("URL of a kube-prometheus, added to Grafana as a datasource.")
  private String kubePrometheusURL;

  @JsonProperty("alertmanagerURL")
  @JsonPropertyDescription("Alertmanager host:port; enables the alert rules.")
  private String alertmanagerURL;

  @JsonProperty("alertManagerRulesVersion")
  @JsonPropertyDescription("TiDB version of the alert rules; the initializer's version when empty.")
  private String alertManagerRulesVersion;

  @JsonProperty("additionalContainers")
  @JsonPropertyDescription("Sidecar containers; one named like a monitor container is merged into it. Stored without schema.")
  @SchemaFrom(type = PreservedList.class)
  private List<Container> additionalContainers;

  @JsonProperty("clusterScoped")
  @JsonPropertyDescription("Give Prometheus a ClusterRole to discover pods in every namespace (needed for clusters in other namespaces).")
  private Boolean clusterScoped;

  @JsonProperty("externalLabels")
  @JsonPropertyDescription("Labels added to every series sent to external systems.")
  private Map<String, String> externalLabels;

  @JsonProperty("replicaExternalLabelName")
  @JsonPropertyDescription("Name of the external label holding the replica (default prometheus_replica; empty: none).")
  private String replicaExternalLabelName;

  @JsonProperty("replicas")
  @JsonPropertyDescription("Pods per shard (default 1).")
  @Min(0)
  private Integer replicas;

  @JsonProperty("shards")
  @JsonPropertyDescription("Number of Prometheus shards, each a StatefulSet scraping its hash-mod share of the targets (default 1).")
  @Min(1)
  private Integer shards;

  @JsonProperty("additionalVolumes")
  @JsonPropertyDescription("Extra pod volumes. Stored without schema.")
  @SchemaFrom(type = PreservedList.class)
  private List<Volume> additionalVolumes;

  @JsonProperty("podSecurityContext")
  @JsonPropertyDescription("Pod-level security context.")
  private PodSecurityContext podSecurityContext;

  @JsonProperty("enableAlertRules")
  @JsonPropertyDescription("Load the initializer's alert rules even without an Alertmanager.")
  private Boolean enableAlertRules;

  @JsonProperty("timezone")
  @JsonPropertyDescription("Time zone of the containers (TZ), default UTC.")
  private String timezone;

  @JsonProperty("preferIPv6")
  @JsonPropertyDescription("Prefer IPv6 for the Services (ipFamilyPolicy PreferDualStack, IPv6 first).")
  private Boolean preferIPv6;

  @JsonProperty("automountServiceAccountToken")
  @JsonPropertyDescription("Whether the service account token is mounted automatically.")
  private Boolean automountServiceAccountToken;
}
