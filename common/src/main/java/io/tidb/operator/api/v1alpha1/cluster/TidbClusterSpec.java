package io.tidb.operator.api.v1alpha1.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.PodDNSConfig;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.Toleration;
import io.tidb.operator.api.v1alpha1.shared.TidbClusterRef;
import java.util.List;
import java.util.Map;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** Desired state of a TiDB cluster. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode
public class TidbClusterSpec {

  @JsonProperty("version")
  @JsonPropertyDescription("Default image tag of every component, e.g. v8.5.0.")
  private String version;

  @JsonProperty("discovery")
  @JsonPropertyDescription("The discovery service.")
  private DiscoverySpec discovery;

  @JsonProperty("pd")
  @JsonPropertyDescription("The PD component.")
  private PdSpec pd;

  @JsonProperty("pdms")
  @JsonPropertyDescription("PD microservices (used when pd.mode is ms).")
  private List<PdMsSpec> pdms;

  @JsonProperty("tidb")
  @JsonPropertyDescription("The TiDB component.")
  private TidbSpec tidb;

  @JsonProperty("tikv")
  @JsonPropertyDescription("The TiKV component.")
  private TikvSpec tikv;

  @JsonProperty("tiflash")
  @JsonPropertyDescription("The TiFlash component.")
  private TiflashSpec tiflash;

  @JsonProperty("ticdc")
  @JsonPropertyDescription("The TiCDC component.")
  private TicdcSpec ticdc;

  @JsonProperty("tiproxy")
  @JsonPropertyDescription("The TiProxy component.")
  private TiproxySpec tiproxy;

  @JsonProperty("pump")
  @JsonPropertyDescription("The Pump component.")
  private PumpSpec pump;

  @JsonProperty("tici")
  @JsonPropertyDescription("The TiCI component; kept verbatim and not managed by this operator.")
  @SchemaFrom(type = JsonNode.class)
  private JsonNode tici;

  @JsonProperty("helper")
  @JsonPropertyDescription("The helper image.")
  private HelperSpec helper;

  @JsonProperty("paused")
  @JsonPropertyDescription("Stop changing the cluster's resources; status is still refreshed.")
  private Boolean paused;

  @JsonProperty("recoveryMode")
  @JsonPropertyDescription("Start the cluster in recovery mode (volume-snapshot restore).")
  private Boolean recoveryMode;

  @JsonProperty("pvReclaimPolicy")
  @JsonPropertyDescription("Reclaim policy set on the cluster's PVs: Retain, Recycle or Delete.")
  @Default("Retain")
  @Pattern("^(Retain|Recycle|Delete)?$")
  private String pvReclaimPolicy;

  @JsonProperty("imagePullPolicy")
  @JsonPropertyDescription("Default image pull policy.")
  @Default("IfNotPresent")
  @Pattern("^(Always|Never|IfNotPresent)?$")
  private String imagePullPolicy;

  @JsonProperty("imagePullSecrets")
  @JsonPropertyDescription("Default image pull secrets.")
  private List<LocalObjectReference> imagePullSecrets;

  @JsonProperty("configUpdateStrategy")
  @JsonPropertyDescription("Default config update strategy: InPlace or RollingUpdate.")
  @Pattern("^(InPlace|RollingUpdate)?$")
  private String configUpdateStrategy;

  @JsonProperty("enablePVReclaim")
  @JsonPropertyDescription("Delete the PVs of scaled-in members (defer-deleted PVCs).")
  private Boolean enablePVReclaim;

  @JsonProperty("enablePVCReplace")
  @JsonPropertyDescription("Replace volumes whose StorageClass or size cannot change in place.")
  private Boolean enablePVCReplace;

  @JsonProperty("tlsCluster")
  @JsonPropertyDescription("TLS between components.")
  private TlsCluster tlsCluster;

  @JsonProperty("hostNetwork")
  @JsonPropertyDescription("Default: run pods in the host network namespace.")
  private Boolean hostNetwork;

  @JsonProperty("affinity")
  @JsonPropertyDescription("Default pod affinity. Stored without schema.")
  @SchemaFrom(type = JsonNode.class)
  private Affinity affinity;

  @JsonProperty("priorityClassName")
  @JsonPropertyDescription("Default PriorityClass of the pods.")
  private String priorityClassName;

  @JsonProperty("schedulerName")
  @JsonPropertyDescription("Default scheduler of the pods.")
  private String schedulerName;

  @JsonProperty("nodeSelector")
  @JsonPropertyDescription("Default node selector.")
  private Map<String, String> nodeSelector;

  @JsonProperty("annotations")
  @JsonPropertyDescription("Default pod annotations.")
  private Map<String, String> annotations;

  @JsonProperty("labels")
  @JsonPropertyDescription("Default pod labels.")
  private Map<String, String> labels;

  @JsonProperty("tolerations")
  @JsonPropertyDescription("Default pod tolerations.")
  private List<Toleration> tolerations;

  @JsonProperty("dnsConfig")
  @JsonPropertyDescription("Default pod DNS configuration.")
  private PodDNSConfig dnsConfig;

  @JsonProperty("dnsPolicy")
  @JsonPropertyDescription("Default pod DNS policy.")
  private String dnsPolicy;

  @JsonProperty("timezone")
  @JsonPropertyDescription("Timezone of the cluster, exported to pods as TZ.")
  private String timezone;

  @JsonProperty("services")
  @JsonPropertyDescription("Deprecated: use the component service fields.")
  private List<ServiceRef> services;

  @JsonProperty("enableDynamicConfiguration")
  @JsonPropertyDescription("Let components change configuration at runtime (adds TiKV --advertise-status-addr).")
  private Boolean enableDynamicConfiguration;

  @JsonProperty("clusterDomain")
  @JsonPropertyDescription("Kubernetes cluster domain, needed when the cluster spans Kubernetes clusters.")
  private String clusterDomain;

  @JsonProperty("acrossK8s")
  @JsonPropertyDescription("The cluster spans several Kubernetes clusters.")
  private Boolean acrossK8s;

  @JsonProperty("cluster")
  @JsonPropertyDescription("Another TidbCluster this one joins (heterogeneous clusters).")
  private TidbClusterRef cluster;

  @JsonProperty("pdAddresses")
  @JsonPropertyDescription("Addresses (http or https URLs) of PD members outside this TidbCluster.")
  private List<String> pdAddresses;

  @JsonProperty("statefulSetUpdateStrategy")
  @JsonPropertyDescription("Default StatefulSet update strategy.")
  @Pattern("^(RollingUpdate|OnDelete)?$")
  private String statefulSetUpdateStrategy;

  @JsonProperty("podManagementPolicy")
  @JsonPropertyDescription("Default StatefulSet pod management policy.")
  @Pattern("^(OrderedReady|Parallel)?$")
  private String podManagementPolicy;

  @JsonProperty("podSecurityContext")
  @JsonPropertyDescription("Default pod security context.")
  private PodSecurityContext podSecurityContext;

  @JsonProperty("topologySpreadConstraints")
  @JsonPropertyDescription("Default topology spread constraints.")
  private List<SpreadConstraint> topologySpreadConstraints;

  @JsonProperty("startScriptVersion")
  @JsonPropertyDescription("Start script version: v1 or v2.")
  @Pattern("^(v1|v2)?$")
  private String startScriptVersion;

  @JsonProperty("startScriptV2FeatureFlags")
  @JsonPropertyDescription("Feature flags of start script v2.")
  private List<String> startScriptV2FeatureFlags;

  @JsonProperty("suspendAction")
  @JsonPropertyDescription("Default suspend actions.")
  private SuspendAction suspendAction;

  @JsonProperty("preferIPv6")
  @JsonPropertyDescription("Prefer IPv6 addresses.")
  private Boolean preferIPv6;

  @JsonProperty("serviceAccount")
  @JsonPropertyDescription("Default service account of the pods.")
  private String serviceAccount;
}
