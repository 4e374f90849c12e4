package io.tidb.operator.api.v1alpha1.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.crd.generator.annotation.SchemaFrom;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvFromSource;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.PodDNSConfig;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** Pod and container settings shared by every TidbCluster component. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public abstract class ComponentSpec extends ContainerResources {

  @JsonProperty("version")
  @JsonPropertyDescription("Image tag of this component; overrides spec.version.")
  private String version;

  @JsonProperty("image")
  @JsonPropertyDescription("Deprecated: full image reference. Use baseImage and version.")
  private String image;

  @JsonProperty("imagePullPolicy")
  @JsonPropertyDescription("Image pull policy of this component's containers; overrides spec.imagePullPolicy.")
  @Pattern("^(Always|Never|IfNotPresent)?$")
  private String imagePullPolicy;

  @JsonProperty("imagePullSecrets")
  @JsonPropertyDescription("Secrets used to pull images; overrides spec.imagePullSecrets.")
  private List<LocalObjectReference> imagePullSecrets;

  @JsonProperty("hostNetwork")
  @JsonPropertyDescription("Run the pods in the host network namespace; overrides spec.hostNetwork.")
  private Boolean hostNetwork;

  @JsonProperty("affinity")
  @JsonPropertyDescription("Pod scheduling affinity; overrides spec.affinity. Stored without schema (see docs/api-reference.md).")
  @SchemaFrom(type = JsonNode.class)
  private Affinity affinity;

  @JsonProperty("priorityClassName")
  @JsonPropertyDescription("PriorityClass of the pods; overrides spec.priorityClassName.")
  private String priorityClassName;

  @JsonProperty("schedulerName")
  @JsonPropertyDescription("Scheduler of the pods; overrides spec.schedulerName.")
  private String schedulerName;

  @JsonProperty("nodeSelector")
  @JsonPropertyDescription("Node labels the pods must match; merged with spec.nodeSelector.")
  private Map<String, String> nodeSelector;

  @JsonProperty("annotations")
  @JsonPropertyDescription("Extra pod annotations; merged with spec.annotations.")
  private Map<String, String> annotations;

  @JsonProperty("labels")
  @JsonPropertyDescription("Extra pod labels; merged with spec.labels.")
  private Map<String, String> labels;

  @JsonProperty("tolerations")
  @JsonPropertyDescription("Pod tolerations; override spec.tolerations.")
  private List<Toleration> tolerations;

  @JsonProperty("podSecurityContext")
  @JsonPropertyDescription("Pod-level security context; overrides spec.podSecurityContext.")
  private PodSecurityContext podSecurityContext;

  @JsonProperty("securityContext")
  @JsonPropertyDescription("Security context of the main container.")
  private SecurityContext securityContext;

  @JsonProperty("configUpdateStrategy")
  @JsonPropertyDescription("How a config change reaches running pods: InPlace (no restart) or RollingUpdate.")
  @Pattern("^(InPlace|RollingUpdate)?$")
  private String configUpdateStrategy;

  @JsonProperty("env")
  @JsonPropertyDescription("Extra environment variables of the main container.")
  private List<EnvVar> env;

  @JsonProperty("envFrom")
  @JsonPropertyDescription("Extra environment variable sources of the main container.")
  private List<EnvFromSource> envFrom;

  @JsonProperty("initContainers")
  @JsonPropertyDescription("Init containers added to the pod. Stored without schema.")
  @SchemaFrom(type = PreservedList.class)
  private List<Container> initContainers;

  @JsonProperty("additionalContainers")
  @JsonPropertyDescription("Sidecar containers; a container named like the main one is merged into it. Stored without schema.")
  @SchemaFrom(type = PreservedList.class)
  private List<Container> additionalContainers;

  @JsonProperty("additionalVolumes")
  @JsonPropertyDescription("Extra pod volumes. Stored without schema.")
  @SchemaFrom(type = PreservedList.class)
  private List<Volume> additionalVolumes;

  @JsonProperty("additionalVolumeMounts")
  @JsonPropertyDescription("Extra volume mounts of the main container.")
  private List<VolumeMount> additionalVolumeMounts;

  @JsonProperty("dnsConfig")
  @JsonPropertyDescription("Pod DNS configuration; overrides spec.dnsConfig.")
  private PodDNSConfig dnsConfig;

  @JsonProperty("dnsPolicy")
  @JsonPropertyDescription("Pod DNS policy; overrides spec.dnsPolicy.")
  private String dnsPolicy;

  @JsonProperty("terminationGracePeriodSeconds")
  @JsonPropertyDescription("Seconds a pod may take to stop gracefully.")
  @Min(0)
  private Long terminationGracePeriodSeconds;

  @JsonProperty("statefulSetUpdateStrategy")
  @JsonPropertyDescription("StatefulSet update strategy: RollingUpdate or OnDelete.")
  @Pattern("^(RollingUpdate|OnDelete)?$")
  private String statefulSetUpdateStrategy;

  @JsonProperty("podManagementPolicy")
  @JsonPropertyDescription("StatefulSet pod management policy: OrderedReady or Parallel.")
  @Pattern("^(OrderedReady|Parallel)?$")
  private String podManagementPolicy;

  @JsonProperty("topologySpreadConstraints")
  @JsonPropertyDescription("How pods spread over topology domains; overrides spec.topologySpreadConstraints.")
  private List<SpreadConstraint> topologySpreadConstraints;

  @JsonProperty("suspendAction")
  @JsonPropertyDescription("Suspend actions of this component; overrides spec.suspendAction.")
  private SuspendAction suspendAction;

  @JsonProperty("readinessProbe")
  @JsonPropertyDescription("Readiness probe of the main container.")
  private ProbeSpec readinessProbe;

  @JsonProperty("automountServiceAccountToken")
  @JsonPropertyDescription("Whether the service account token is mounted.")
  private Boolean automountServiceAccountToken;

  public String getVersion() {
    return version;
  }

  public void setVersion(String version) {
    this.version = version;
  }

  public String getImage() {
    return image;
  }

  public void setImage(String image) {
    this.image = image;
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

  public PodSecurityContext getPodSecurityContext() {
    return podSecurityContext;
  }

  public void setPodSecurityContext(PodSecurityContext podSecurityContext) {
    this.podSecurityContext = podSecurityContext;
  }

  public SecurityContext getSecurityContext() {
    return securityContext;
  }

  public void setSecurityContext(SecurityContext securityContext) {
    this.securityContext = securityContext;
  }

  public String getConfigUpdateStrategy() {
    return configUpdateStrategy;
  }

  public void setConfigUpdateStrategy(String configUpdateStrategy) {
    this.configUpdateStrategy = configUpdateStrategy;
  }

  public List<EnvVar> getEnv() {
    return env;
  }

  public void setEnv(List<EnvVar> env) {
    this.env = env;
  }

  public List<EnvFromSource> getEnvFrom() {
    return envFrom;
  }

  public void setEnvFrom(List<EnvFromSource> envFrom) {
    this.envFrom = envFrom;
  }

  public List<Container> getInitContainers() {
    return initContainers;
  }

  public void setInitContainers(List<Container> initContainers) {
    this.initContainers = initContainers;
  }

  public List<Container> getAdditionalContainers() {
    return additionalContainers;
  }

  public void setAdditionalContainers(List<Container> additionalContainers) {
    this.additionalContainers = additionalContainers;
  }

  public List<Volume> getAdditionalVolumes() {
    return additionalVolumes;
  }

  public void setAdditionalVolumes(List<Volume> additionalVolumes) {
    this.additionalVolumes = additionalVolumes;
  }

  public List<VolumeMount> getAdditionalVolumeMounts() {
    return additionalVolumeMounts;
  }

  public void setAdditionalVolumeMounts(List<VolumeMount> additionalVolumeMounts) {
    this.additionalVolumeMounts = additionalVolumeMounts;
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

  public Long getTerminationGracePeriodSeconds() {
    return terminationGracePeriodSeconds;
  }

  public void setTerminationGracePeriodSeconds(Long terminationGracePeriodSeconds) {
    this.terminationGracePeriodSeconds = terminationGracePeriodSeconds;
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

  public List<SpreadConstraint> getTopologySpreadConstraints() {
    return topologySpreadConstraints;
  }

  public void setTopologySpreadConstraints(List<SpreadConstraint> topologySpreadConstraints) {
    this.topologySpreadConstraints = topologySpreadConstraints;
  }

  public SuspendAction getSuspendAction() {
    return suspendAction;
  }

  public void setSuspendAction(SuspendAction suspendAction) {
    this.suspendAction = suspendAction;
  }

  public ProbeSpec getReadinessProbe() {
    return readinessProbe;
  }

  public void setReadinessProbe(ProbeSpec readinessProbe) {
    this.readinessProbe = readinessProbe;
  }

  public Boolean getAutomountServiceAccountToken() {
    return automountServiceAccountToken;
  }

  public void setAutomountServiceAccountToken(Boolean automountServiceAccountToken) {
    this.automountServiceAccountToken = automountServiceAccountToken;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (o == null || getClass() != o.getClass()) {
      return false;
    }
    if (!super.equals(o)) {
      return false;
    }
    ComponentSpec that = (ComponentSpec) o;
    return Objects.equals(version, that.version)
        && Objects.equals(image, that.image)
        && Objects.equals(imagePullPolicy, that.imagePullPolicy)
        && Objects.equals(imagePullSecrets, that.imagePullSecrets)
        && Objects.equals(hostNetwork, that.hostNetwork)
        && Objects.equals(affinity, that.affinity)
        && Objects.equals(priorityClassName, that.priorityClassName)
        && Objects.equals(schedulerName, that.schedulerName)
        && Objects.equals(nodeSelector, that.nodeSelector)
        && Objects.equals(annotations, that.annotations)
        && Objects.equals(labels, that.labels)
        && Objects.equals(tolerations, that.tolerations)
        && Objects.equals(podSecurityContext, that.podSecurityContext)
        && Objects.equals(securityContext, that.securityContext)
        && Objects.equals(configUpdateStrategy, that.configUpdateStrategy)
        && Objects.equals(env, that.env)
        && Objects.equals(envFrom, that.envFrom)
        && Objects.equals(initContainers, that.initContainers)
        && Objects.equals(additionalContainers, that.additionalContainers)
        && Objects.equals(additionalVolumes, that.additionalVolumes)
        && Objects.equals(additionalVolumeMounts, that.additionalVolumeMounts)
        && Objects.equals(dnsConfig, that.dnsConfig)
        && Objects.equals(dnsPolicy, that.dnsPolicy)
        && Objects.equals(terminationGracePeriodSeconds, that.terminationGracePeriodSeconds)
        && Objects.equals(statefulSetUpdateStrategy, that.statefulSetUpdateStrategy)
        && Objects.equals(podManagementPolicy, that.podManagementPolicy)
        && Objects.equals(topologySpreadConstraints, that.topologySpreadConstraints)
        && Objects.equals(suspendAction, that.suspendAction)
        && Objects.equals(readinessProbe, that.readinessProbe)
        && Objects.equals(automountServiceAccountToken, that.automountServiceAccountToken);
  }

  @Override
  public int hashCode() {
    return Objects.hash(super.hashCode(), version, image, imagePullPolicy, imagePullSecrets, hostNetwork, affinity, priorityClassName, schedulerName, nodeSelector, annotations, labels, tolerations, podSecurityContext, securityContext, configUpdateStrategy, env, envFrom, initContainers, additionalContainers, additionalVolumes, additionalVolumeMounts, dnsConfig, dnsPolicy, terminationGracePeriodSeconds, statefulSetUpdateStrategy, podManagementPolicy, topologySpreadConstraints, suspendAction, readinessProbe, automountServiceAccountToken);
  }
}
