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
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.Setter;

/** Pod and container settings shared by every TidbCluster component. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@Getter
@Setter
@EqualsAndHashCode(callSuper = true)
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
}
