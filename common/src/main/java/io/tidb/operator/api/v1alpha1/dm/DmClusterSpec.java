package io.tidb.operator.api.v1alpha1.dm;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.PodDNSConfig;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.Toleration;
import io.tidb.operator.api.v1alpha1.cluster.SpreadConstraint;
import io.tidb.operator.api.v1alpha1.cluster.SuspendAction;
import io.tidb.operator.api.v1alpha1.cluster.TlsCluster;
import java.util.List;
import java.util.Map;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** The desired DM cluster: discovery, dm-master, dm-worker and the pod settings they share. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode
public class DmClusterSpec {

  @JsonProperty("discovery")
  @JsonPropertyDescription("The discovery service dm-master members ask how to bootstrap or join.")
  private DmDiscoverySpec discovery;

  @JsonProperty("master")
  @JsonPropertyDescription("The dm-master members.")
  private MasterSpec master;

  @JsonProperty("worker")
  @JsonPropertyDescription("The dm-worker members; none when absent.")
  private WorkerSpec worker;

  @JsonProperty("paused")
  @JsonPropertyDescription("The operator leaves the cluster alone while true.")
  private Boolean paused;

  @JsonProperty("version")
  @JsonPropertyDescription("DM version (image tag) of every component unless the component sets its own; v2 or later.")
  private String version;

  @JsonProperty("schedulerName")
  @JsonPropertyDescription("Scheduler of the pods.")
  private String schedulerName;

  @JsonProperty("pvReclaimPolicy")
  @JsonPropertyDescription("Reclaim policy of the data volumes: Retain (default), Delete or Recycle.")
  @Pattern("^(Retain|Recycle|Delete)?$")
  private String pvReclaimPolicy;

  @JsonProperty("imagePullPolicy")
  @JsonPropertyDescription("Image pull policy of every container (default IfNotPresent).")
  @Pattern("^(Always|Never|IfNotPresent)?$")
  private String imagePullPolicy;

  @JsonProperty("imagePullSecrets")
  @JsonPropertyDescription("Secrets used to pull images.")
  private List<LocalObjectReference> imagePullSecrets;

  @JsonProperty("configUpdateStrategy")
  @JsonPropertyDescription("How a config change reaches running pods: InPlace (the ConfigMap is updated, pods restart later) or RollingUpdate (a new ConfigMap, pods roll).")
  @Pattern("^(InPlace|RollingUpdate)?$")
  private String configUpdateStrategy;

  @JsonProperty("enablePVReclaim")
  @JsonPropertyDescription("Delete the PVCs a scale-in left behind (default false).")
  private Boolean enablePVReclaim;

  @JsonProperty("tlsCluster")
  @JsonPropertyDescription("Mutual TLS between the DM components.")
  private TlsCluster tlsCluster;

  @JsonProperty("tlsClientSecretNames")
  @JsonPropertyDescription("Secrets holding client certificates for the MySQL/TiDB servers dm-master and dm-worker connect to; mounted under /var/lib/source-tls/<name>.")
  private List<String> tlsClientSecretNames;

  @JsonProperty("hostNetwork")
  @JsonPropertyDescription("Run the pods in the host network namespace.")
  private Boolean hostNetwork;

  @JsonProperty("affinity")
  @JsonPropertyDescription("Pod scheduling affinity. Stored without schema.")
  @SchemaFrom(type = JsonNode.class)
  private Affinity affinity;

  @JsonProperty("priorityClassName")
  @JsonPropertyDescription("PriorityClass of the pods.")
  private String priorityClassName;

  @JsonProperty("nodeSelector")
  @JsonPropertyDescription("Node labels the pods must match; components may add to them.")
  private Map<String, String> nodeSelector;

  @JsonProperty("annotations")
  @JsonPropertyDescription("Extra pod annotations; the components' own win.")
  private Map<String, String> annotations;

  @JsonProperty("labels")
  @JsonPropertyDescription("Extra pod labels; the components' own win.")
  private Map<String, String> labels;

  @JsonProperty("timezone")
  @JsonPropertyDescription("Time zone of the containers (TZ), default UTC.")
  private String timezone;

  @JsonProperty("tolerations")
  @JsonPropertyDescription("Pod tolerations; components may add to them.")
  private List<Toleration> tolerations;

  @JsonProperty("dnsConfig")
  @JsonPropertyDescription("DNS parameters of the pods.")
  private PodDNSConfig dnsConfig;

  @JsonProperty("dnsPolicy")
  @JsonPropertyDescription("DNS policy of the pods.")
  private String dnsPolicy;

  @JsonProperty("podSecurityContext")
  @JsonPropertyDescription("Pod-level security context.")
  private PodSecurityContext podSecurityContext;

  @JsonProperty("statefulSetUpdateStrategy")
  @JsonPropertyDescription("Update strategy of the StatefulSets: RollingUpdate or OnDelete.")
  @Pattern("^(RollingUpdate|OnDelete)?$")
  private String statefulSetUpdateStrategy;

  @JsonProperty("podManagementPolicy")
  @JsonPropertyDescription("Pod management policy of the StatefulSets: OrderedReady or Parallel.")
  @Pattern("^(OrderedReady|Parallel)?$")
  private String podManagementPolicy;

  @JsonProperty("topologySpreadConstraints")
  @JsonPropertyDescription("How the pods spread across topology domains.")
  private List<SpreadConstraint> topologySpreadConstraints;

  @JsonProperty("suspendAction")
  @JsonPropertyDescription("Suspend actions of every component.")
  private SuspendAction suspendAction;

  @JsonProperty("preferIPv6")
  @JsonPropertyDescription("Prefer IPv6 addresses for every component.")
  private Boolean preferIPv6;
}
