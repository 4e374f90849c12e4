package io.tidb.operator.api.v1alpha1.cluster;

import io.tidb.operator.api.v1alpha1.shared.TidbClusterRef;
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
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** Desired state of a TiDB cluster. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
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

  public String getVersion() {
    return version;
  }

  public void setVersion(String version) {
    this.version = version;
  }

  public DiscoverySpec getDiscovery() {
    return discovery;
  }

  public void setDiscovery(DiscoverySpec discovery) {
    this.discovery = discovery;
  }

  public PdSpec getPd() {
    return pd;
  }

  public void setPd(PdSpec pd) {
    this.pd = pd;
  }

  public List<PdMsSpec> getPdms() {
    return pdms;
  }

  public void setPdms(List<PdMsSpec> pdms) {
    this.pdms = pdms;
  }

  public TidbSpec getTidb() {
    return tidb;
  }

  public void setTidb(TidbSpec tidb) {
    this.tidb = tidb;
  }

  public TikvSpec getTikv() {
    return tikv;
  }

  public void setTikv(TikvSpec tikv) {
    this.tikv = tikv;
  }

  public TiflashSpec getTiflash() {
    return tiflash;
  }

  public void setTiflash(TiflashSpec tiflash) {
    this.tiflash = tiflash;
  }

  public TicdcSpec getTicdc() {
    return ticdc;
  }

  public void setTicdc(TicdcSpec ticdc) {
    this.ticdc = ticdc;
  }

  public TiproxySpec getTiproxy() {
    return tiproxy;
  }

  public void setTiproxy(TiproxySpec tiproxy) {
    this.tiproxy = tiproxy;
  }

  public PumpSpec getPump() {
    return pump;
  }

  public void setPump(PumpSpec pump) {
    this.pump = pump;
  }

  public JsonNode getTici() {
    return tici;
  }

  public void setTici(JsonNode tici) {
    this.tici = tici;
  }

  public HelperSpec getHelper() {
    return helper;
  }

  public void setHelper(HelperSpec helper) {
    this.helper = helper;
  }

  public Boolean getPaused() {
    return paused;
  }

  public void setPaused(Boolean paused) {
    this.paused = paused;
  }

  public Boolean getRecoveryMode() {
    return recoveryMode;
  }

  public void setRecoveryMode(Boolean recoveryMode) {
    this.recoveryMode = recoveryMode;
  }

  public String getPvReclaimPolicy() {
    return pvReclaimPolicy;
  }

  public void setPvReclaimPolicy(String pvReclaimPolicy) {
    this.pvReclaimPolicy = pvReclaimPolicy;
  }

  public String getImagePullPolicy() {
    return imagePullPolicy;
  }

  public void setImagePullPolicy(String imagePullPolicy) {
    this.imagePullPolicy = imagePullPolicy;
  }

  public List<LocalObjectReference> getImagePullSecrets() {
    return imagePullSecrets;
  }

  public void setImagePullSecrets(List<LocalObjectReference> imagePullSecrets) {
    this.imagePullSecrets = imagePullSecrets;
  }

  public String getConfigUpdateStrategy() {
    return configUpdateStrategy;
  }

  public void setConfigUpdateStrategy(String configUpdateStrategy) {
    this.configUpdateStrategy = configUpdateStrategy;
  }

  public Boolean getEnablePVReclaim() {
    return enablePVReclaim;
  }

  public void setEnablePVReclaim(Boolean enablePVReclaim) {
    this.enablePVReclaim = enablePVReclaim;
  }

  public Boolean getEnablePVCReplace() {
    return enablePVCReplace;
  }

  public void setEnablePVCReplace(Boolean enablePVCReplace) {
    this.enablePVCReplace = enablePVCReplace;
  }

  public TlsCluster getTlsCluster() {
    return tlsCluster;
  }

  public void setTlsCluster(TlsCluster tlsCluster) {
    this.tlsCluster = tlsCluster;
  }

  public Boolean getHostNetwork() {
    return hostNetwork;
  }

  public void setHostNetwork(Boolean hostNetwork) {
    this.hostNetwork = hostNetwork;
  }

  public Affinity getAffinity() {
    return affinity;
  }

  public void setAffinity(Affinity affinity) {
    this.affinity = affinity;
  }

  public String getPriorityClassName() {
    return priorityClassName;
  }

  public void setPriorityClassName(String priorityClassName) {
    this.priorityClassName = priorityClassName;
  }

  public String getSchedulerName() {
    return schedulerName;
  }

  public void setSchedulerName(String schedulerName) {
    this.schedulerName = schedulerName;
  }

  public Map<String, String> getNodeSelector() {
    return nodeSelector;
  }

  public void setNodeSelector(Map<String, String> nodeSelector) {
    this.nodeSelector = nodeSelector;
  }

  public Map<String, String> getAnnotations() {
    return annotations;
  }

  public void setAnnotations(Map<String, String> annotations) {
    this.annotations = annotations;
  }

  public Map<String, String> getLabels() {
    return labels;
  }

  public void setLabels(Map<String, String> labels) {
    this.labels = labels;
  }

  public List<Toleration> getTolerations() {
    return tolerations;
  }

  public void setTolerations(List<Toleration> tolerations) {
    this.tolerations = tolerations;
  }

  public PodDNSConfig getDnsConfig() {
    return dnsConfig;
  }

  public void setDnsConfig(PodDNSConfig dnsConfig) {
    this.dnsConfig = dnsConfig;
  }

  public String getDnsPolicy() {
    return dnsPolicy;
  }

  public void setDnsPolicy(String dnsPolicy) {
    this.dnsPolicy = dnsPolicy;
  }

  public String getTimezone() {
    return timezone;
  }

  public void setTimezone(String timezone) {
    this.timezone = timezone;
  }

  public List<ServiceRef> getServices() {
    return services;
  }

  public void setServices(List<ServiceRef> services) {
    this.services = services;
  }

  public Boolean getEnableDynamicConfiguration() {
    return enableDynamicConfiguration;
  }

  public void setEnableDynamicConfiguration(Boolean enableDynamicConfiguration) {
    this.enableDynamicConfiguration = enableDynamicConfiguration;
  }

  public String getClusterDomain() {
    return clusterDomain;
  }

  public void setClusterDomain(String clusterDomain) {
    this.clusterDomain = clusterDomain;
  }

  public Boolean getAcrossK8s() {
    return acrossK8s;
  }

  public void setAcrossK8s(Boolean acrossK8s) {
    this.acrossK8s = acrossK8s;
  }

  public TidbClusterRef getCluster() {
    return cluster;
  }

  public void setCluster(TidbClusterRef cluster) {
    this.cluster = cluster;
  }

  public List<String> getPdAddresses() {
    return pdAddresses;
  }

  public void setPdAddresses(List<String> pdAddresses) {
    this.pdAddresses = pdAddresses;
  }

  public String getStatefulSetUpdateStrategy() {
    return statefulSetUpdateStrategy;
  }

  public void setStatefulSetUpdateStrategy(String statefulSetUpdateStrategy) {
    this.statefulSetUpdateStrategy = statefulSetUpdateStrategy;
  }

  public String getPodManagementPolicy() {
    return podManagementPolicy;
  }

  public void setPodManagementPolicy(String podManagementPolicy) {
    this.podManagementPolicy = podManagementPolicy;
  }

  public PodSecurityContext getPodSecurityContext() {
    return podSecurityContext;
  }

  public void setPodSecurityContext(PodSecurityContext podSecurityContext) {
    this.podSecurityContext = podSecurityContext;
  }

  public List<SpreadConstraint> getTopologySpreadConstraints() {
    return topologySpreadConstraints;
  }

  public void setTopologySpreadConstraints(List<SpreadConstraint> topologySpreadConstraints) {
    this.topologySpreadConstraints = topologySpreadConstraints;
  }

  public String getStartScriptVersion() {
    return startScriptVersion;
  }

  public void setStartScriptVersion(String startScriptVersion) {
    this.startScriptVersion = startScriptVersion;
  }

  public List<String> getStartScriptV2FeatureFlags() {
    return startScriptV2FeatureFlags;
  }

  public void setStartScriptV2FeatureFlags(List<String> startScriptV2FeatureFlags) {
    this.startScriptV2FeatureFlags = startScriptV2FeatureFlags;
  }

  public SuspendAction getSuspendAction() {
    return suspendAction;
  }

  public void setSuspendAction(SuspendAction suspendAction) {
    this.suspendAction = suspendAction;
  }

  public Boolean getPreferIPv6() {
    return preferIPv6;
  }

  public void setPreferIPv6(Boolean preferIPv6) {
    this.preferIPv6 = preferIPv6;
  }

  public String getServiceAccount() {
    return serviceAccount;
  }

  public void setServiceAccount(String serviceAccount) {
    this.serviceAccount = serviceAccount;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    TidbClusterSpec that = (TidbClusterSpec) o;
    return Objects.equals(version, that.version)
        && Objects.equals(discovery, that.discovery)
        && Objects.equals(pd, that.pd)
        && Objects.equals(pdms, that.pdms)
        && Objects.equals(tidb, that.tidb)
        && Objects.equals(tikv, that.tikv)
        && Objects.equals(tiflash, that.tiflash)
        && Objects.equals(ticdc, that.ticdc)
        && Objects.equals(tiproxy, that.tiproxy)
        && Objects.equals(pump, that.pump)
        && Objects.equals(tici, that.tici)
        && Objects.equals(helper, that.helper)
        && Objects.equals(paused, that.paused)
        && Objects.equals(recoveryMode, that.recoveryMode)
        && Objects.equals(pvReclaimPolicy, that.pvReclaimPolicy)
        && Objects.equals(imagePullPolicy, that.imagePullPolicy)
        && Objects.equals(imagePullSecrets, that.imagePullSecrets)
        && Objects.equals(configUpdateStrategy, that.configUpdateStrategy)
        && Objects.equals(enablePVReclaim, that.enablePVReclaim)
        && Objects.equals(enablePVCReplace, that.enablePVCReplace)
        && Objects.equals(tlsCluster, that.tlsCluster)
        && Objects.equals(hostNetwork, that.hostNetwork)
        && Objects.equals(affinity, that.affinity)
        && Objects.equals(priorityClassName, that.priorityClassName)
        && Objects.equals(schedulerName, that.schedulerName)
        && Objects.equals(nodeSelector, that.nodeSelector)
        && Objects.equals(annotations, that.annotations)
        && Objects.equals(labels, that.labels)
        && Objects.equals(tolerations, that.tolerations)
        && Objects.equals(dnsConfig, that.dnsConfig)
        && Objects.equals(dnsPolicy, that.dnsPolicy)
        && Objects.equals(timezone, that.timezone)
        && Objects.equals(services, that.services)
        && Objects.equals(enableDynamicConfiguration, that.enableDynamicConfiguration)
        && Objects.equals(clusterDomain, that.clusterDomain)
        && Objects.equals(acrossK8s, that.acrossK8s)
        && Objects.equals(cluster, that.cluster)
        && Objects.equals(pdAddresses, that.pdAddresses)
        && Objects.equals(statefulSetUpdateStrategy, that.statefulSetUpdateStrategy)
        && Objects.equals(podManagementPolicy, that.podManagementPolicy)
        && Objects.equals(podSecurityContext, that.podSecurityContext)
        && Objects.equals(topologySpreadConstraints, that.topologySpreadConstraints)
        && Objects.equals(startScriptVersion, that.startScriptVersion)
        && Objects.equals(startScriptV2FeatureFlags, that.startScriptV2FeatureFlags)
        && Objects.equals(suspendAction, that.suspendAction)
        && Objects.equals(preferIPv6, that.preferIPv6)
        && Objects.equals(serviceAccount, that.serviceAccount);
  }

  @Override
  public int hashCode() {
    return Objects.hash(version, discovery, pd, pdms, tidb, tikv, tiflash, ticdc, tiproxy, pump, tici, helper, paused, recoveryMode, pvReclaimPolicy, imagePullPolicy, imagePullSecrets, configUpdateStrategy, enablePVReclaim, enablePVCReplace, tlsCluster, hostNetwork, affinity, priorityClassName, schedulerName, nodeSelector, annotations, labels, tolerations, dnsConfig, dnsPolicy, timezone, services, enableDynamicConfiguration, clusterDomain, acrossK8s, cluster, pdAddresses, statefulSetUpdateStrategy, podManagementPolicy, podSecurityContext, topologySpreadConstraints, startScriptVersion, startScriptV2FeatureFlags, suspendAction, preferIPv6, serviceAccount);
  }
}
