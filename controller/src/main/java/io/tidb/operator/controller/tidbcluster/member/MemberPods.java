package io.tidb.operator.controller.tidbcluster.member;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.ContainerPortBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.ProbeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.ServicePortBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSetSpec;
import io.fabric8.kubernetes.api.model.apps.StatefulSetSpecBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSetUpdateStrategy;
import io.fabric8.kubernetes.api.model.apps.StatefulSetUpdateStrategyBuilder;
import io.tidb.operator.api.v1alpha1.cluster.ComponentConfig;
import io.tidb.operator.api.v1alpha1.cluster.ComponentSpec;
import io.tidb.operator.api.v1alpha1.cluster.ContainerResources;
import io.tidb.operator.api.v1alpha1.cluster.MemberSpec;
import io.tidb.operator.api.v1alpha1.cluster.ProbeSpec;
import io.tidb.operator.api.v1alpha1.cluster.StorageVolume;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.controller.tidbcluster.pipeline.Component;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/** Pieces every member (PD, TiKV, TiDB) StatefulSet and ConfigMap is built from. */
public final class MemberPods {
  static final String CONFIG_FILE_KEY = "config-file";
  static final String STARTUP_SCRIPT_KEY = "startup-script";
  public static final String ANNOTATIONS_VOLUME = "annotations";
  public static final String ANNOTATIONS_MOUNT = "/etc/podinfo";
  public static final String STARTUP_SCRIPT_VOLUME = "startup-script";
  public static final String STARTUP_SCRIPT_DIR = "/usr/local/bin";
  public static final String CLUSTER_CLIENT_VOLUME = "cluster-client-tls";
  public static final String CLUSTER_CLIENT_MOUNT = "/var/lib/cluster-client-tls";

  private MemberPods() {}

  /** The cluster's TLS setting: {@code spec.tlsCluster.enabled}. */
  public static boolean tlsCluster(TidbCluster tc) {
    return tc.getSpec().getTlsCluster() != null
        && Boolean.TRUE.equals(tc.getSpec().getTlsCluster().getEnabled());
  }

  public static String scheme(TidbCluster tc) {
    return tlsCluster(tc) ? "https" : "http";
  }

  /** The cluster's {@code spec.clusterDomain}, or empty. */
  public static String clusterDomain(TidbCluster tc) {
    String d = tc.getSpec().getClusterDomain();
    return d == null ? "" : d;
  }

  /** The config file rendered as TOML, with {@code forced} keys set on top; empty config renders "". */
  public static String configToml(ComponentConfig config, Map<String, JsonNode> forced) {
    ComponentConfig c = config == null ? ComponentConfig.empty() : config;
    for (Map.Entry<String, JsonNode> e : forced.entrySet()) {
      c = c.with(e.getKey(), e.getValue());
    }
    // An empty document is the empty string (the TOML writer would emit " = {}" for it).
    return c.tree().isEmpty() ? "" : c.toToml();
  }

  /** Forced config keys pointing a component at its cluster TLS files under {@code dir}. */
  public static Map<String, JsonNode> tlsPaths(String caKey, String certKey, String keyKey, String dir) {
    Map<String, JsonNode> m = new LinkedHashMap<>();
    m.put(caKey, TextNode.valueOf(dir + "/ca.crt"));
    m.put(certKey, TextNode.valueOf(dir + "/tls.crt"));
    m.put(keyKey, TextNode.valueOf(dir + "/tls.key"));
    return m;
  }

  /** {@code <cluster>-<component>-cluster-secret}: a component's cluster TLS certificate Secret. */
  public static String clusterTlsSecret(String cluster, Component component) {
    return cluster + "-" + component.label() + "-cluster-secret";
  }

  /** {@code <cluster>-cluster-client-secret}: the client certificate for tools talking to the cluster. */
  public static String clusterClientSecret(String cluster) {
    return cluster + "-cluster-client-secret";
  }

  /**
   * The component ConfigMap: {@code config-file} and {@code startup-script}, named per
   * {@link ConfigMapNames}.
   */
  public static ConfigMap configMap(
      TidbCluster tc, Component component, PodSettings pod, String configToml, String script,
      Optional<String> inUse) {
    Map<String, String> data = new TreeMap<>();
    data.put(CONFIG_FILE_KEY, configToml);
    data.put(STARTUP_SCRIPT_KEY, script);
    String name = ConfigMapNames.name(tc.getMetadata().getName(), component, pod.configRollingUpdate(), data, inUse);
    return new ConfigMapBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace(tc.getMetadata().getNamespace())
        .withLabels(Labels.component(Labels.instanceOf(tc), component))
        .withOwnerReferences(OwnerRefs.of(tc))
        .endMetadata()
        .withData(data)
        .build();
  }

  /** A headless Service over the component's pods that publishes not-ready addresses. */
  public static Service peerService(TidbCluster tc, Component component, List<ServicePort> ports) {
    String instance = Labels.instanceOf(tc);
    return dualStackIfPreferred(tc, new ServiceBuilder()
        .withNewMetadata()
        .withName(Names.peerService(tc.getMetadata().getName(), component))
        .withNamespace(tc.getMetadata().getNamespace())
        .withLabels(Labels.peerService(instance, component))
        .withOwnerReferences(OwnerRefs.of(tc))
        .endMetadata()
        .withNewSpec()
        .withClusterIP("None")
        .withPorts(ports)
        .withSelector(Labels.component(instance, component))
        .withPublishNotReadyAddresses(true)
        .endSpec()
        .build());
  }

  /**
   * With {@code spec.preferIPv6}, a Service asks for {@code ipFamilyPolicy: PreferDualStack} (as
   * upstream); otherwise the field is left to the server.
   */
  public static Service dualStackIfPreferred(TidbCluster tc, Service svc) {
    if (!Boolean.TRUE.equals(tc.getSpec().getPreferIPv6())) {
      return svc;
    }
    return new ServiceBuilder(svc).editSpec().withIpFamilyPolicy("PreferDualStack").endSpec().build();
  }

  /**
   * {@code set} with the pod template's init containers and containers replaced by these lists,
   * changed in place: {@code set} must be a StatefulSet its caller has just built and shares with
   * nobody (a builder's copy of the whole object, which this replaces, was most of the cost of
   * building TiDB's StatefulSet at every reconcile).
   */
  public static StatefulSet withContainers(
      StatefulSet set, List<Container> initContainers, List<Container> containers) {
    PodSpec pod = set.getSpec().getTemplate().getSpec();
    pod.setInitContainers(initContainers);
    pod.setContainers(containers);
    return set;
  }

  public static ServicePort servicePort(String name, int port) {
    return new ServicePortBuilder()
        .withName(name)
        .withPort(port)
        .withTargetPort(new IntOrString(port))
        .withProtocol("TCP")
        .build();
  }

  public static ContainerPort containerPort(String name, int port) {
    return new ContainerPortBuilder().withName(name).withContainerPort(port).withProtocol("TCP").build();
  }

  public static EnvVar env(String name, String value) {
    return new EnvVarBuilder().withName(name).withValue(value).build();
  }

  public static EnvVar fieldEnv(String name, String fieldPath) {
    return new EnvVarBuilder()
        .withName(name)
        .withNewValueFrom()
        .withNewFieldRef().withApiVersion("v1").withFieldPath(fieldPath).endFieldRef()
        .endValueFrom()
        .build();
  }

  /** {@code base} followed by the user's variables whose names {@code base} does not already use. */
  public static List<EnvVar> withUserEnv(List<EnvVar> base, List<EnvVar> user) {
    List<EnvVar> out = new ArrayList<>(base);
    if (user != null) {
      for (EnvVar e : user) {
        if (out.stream().noneMatch(b -> b.getName().equals(e.getName()))) {
          out.add(e);
        }
      }
    }
    return out;
  }

  /** The pod's annotations mounted at /etc/podinfo/annotations (the start scripts read runmode). */
  public static Volume annotationsVolume() {
    return new VolumeBuilder()
        .withName(ANNOTATIONS_VOLUME)
        .withNewDownwardAPI()
        .addNewItem()
        .withPath("annotations")
        .withNewFieldRef().withApiVersion("v1").withFieldPath("metadata.annotations").endFieldRef()
        .endItem()
        .endDownwardAPI()
        .build();
  }

  public static Volume configMapVolume(String volume, String configMap, String key, String path) {
    return new VolumeBuilder()
        .withName(volume)
        .withNewConfigMap()
        .withName(configMap)
        .addNewItem().withKey(key).withPath(path).endItem()
        .endConfigMap()
        .build();
  }

  public static Volume secretVolume(String volume, String secret) {
    return new VolumeBuilder().withName(volume).withNewSecret().withSecretName(secret).endSecret().build();
  }

  public static VolumeMount mount(String volume, String path, boolean readOnly) {
    VolumeMountBuilder b = new VolumeMountBuilder().withName(volume).withMountPath(path);
    if (readOnly) {
      b.withReadOnly(true);
    }
    return b.build();
  }

  /** The standard config-file and startup-script volumes of a member ConfigMap. */
  public static List<Volume> configVolumes(String configMap, String configFileName, String scriptFileName) {
    return List.of(
        configMapVolume(ConfigMapNames.CONFIG_VOLUME, configMap, CONFIG_FILE_KEY, configFileName),
        configMapVolume(STARTUP_SCRIPT_VOLUME, configMap, STARTUP_SCRIPT_KEY, scriptFileName));
  }

  /** The component's requests and limits without {@code storage} (which sizes volumes instead); null when none are left. */
  public static ResourceRequirements resources(ContainerResources spec) {
    ResourceRequirementsBuilder b = new ResourceRequirementsBuilder();
    Map<String, Quantity> requests = withoutStorage(spec.getRequests());
    Map<String, Quantity> limits = withoutStorage(spec.getLimits());
    if (!requests.isEmpty()) {
      b.withRequests(requests);
    }
    if (!limits.isEmpty()) {
      b.withLimits(limits);
    }
    if (spec.getClaims() != null && !spec.getClaims().isEmpty()) {
      b.withClaims(spec.getClaims());
    }
    ResourceRequirements r = b.build();
    boolean empty = requests.isEmpty() && limits.isEmpty() && (r.getClaims() == null || r.getClaims().isEmpty());
    return empty ? null : r;
  }

  private static Map<String, Quantity> withoutStorage(Map<String, Quantity> list) {
    Map<String, Quantity> out = new TreeMap<>();
    if (list != null) {
      list.forEach((k, v) -> {
        if (!"storage".equals(k)) {
          out.put(k, v);
        }
      });
    }
    return out;
  }

  /** {@code requests.storage} of a component, or a message naming the field when it is missing. */
  public static Quantity storageRequest(ContainerResources spec, String fieldPath) {
    Quantity q = spec.getRequests() == null ? null : spec.getRequests().get("storage");
    if (q == null) {
      throw new IllegalArgumentException(
          fieldPath + ".requests.storage: Required value: the data volume needs a size, e.g. 10Gi");
    }
    return q;
  }

  /** A ReadWriteOnce volume claim template. */
  public static PersistentVolumeClaim claimTemplate(
      String name, Quantity size, String storageClassName, String volumeAttributesClassName) {
    return new PersistentVolumeClaimBuilder()
        .withNewMetadata().withName(name).endMetadata()
        .withNewSpec()
        .withAccessModes("ReadWriteOnce")
        .withStorageClassName(emptyToNull(storageClassName))
        .withVolumeAttributesClassName(emptyToNull(volumeAttributesClassName))
        .withNewResources().addToRequests("storage", size).endResources()
        .endSpec()
        .build();
  }

  /**
   * Claim templates and mounts for {@code storageVolumes}: each is named
   * {@code <component>-<name>}, sized by {@code storageSize}, with its own storage class or the
   * component's, and mounted at {@code mountPath} when one is given.
   */
  public static void storageVolumes(
      Component component, List<StorageVolume> volumes, String defaultClass, String defaultVac,
      List<PersistentVolumeClaim> claims, List<VolumeMount> mounts) {
    if (volumes == null) {
      return;
    }
    for (StorageVolume v : volumes) {
      String name = component.label() + "-" + v.getName();
      String cls = v.getStorageClassName() == null || v.getStorageClassName().isEmpty()
          ? defaultClass : v.getStorageClassName();
      String vac = v.getVolumeAttributesClassName() == null || v.getVolumeAttributesClassName().isEmpty()
          ? defaultVac : v.getVolumeAttributesClassName();
      claims.add(claimTemplate(name, new Quantity(v.getStorageSize()), cls, vac));
      if (v.getMountPath() != null && !v.getMountPath().isEmpty()) {
        mounts.add(mount(name, v.getMountPath(), false));
      }
    }
  }

  /** A TCP readiness probe with the user's delays (initial delay 10 s unless set). */
  public static Probe tcpReadiness(int port, ProbeSpec spec) {
    ProbeBuilder b = new ProbeBuilder()
        .withNewTcpSocket().withPort(new IntOrString(port)).endTcpSocket();
    return withDelays(b, spec).build();
  }

  public static ProbeBuilder withDelays(ProbeBuilder b, ProbeSpec spec) {
    b.withInitialDelaySeconds(spec != null && spec.getInitialDelaySeconds() != null
        ? spec.getInitialDelaySeconds() : 10);
    if (spec != null && spec.getPeriodSeconds() != null) {
      b.withPeriodSeconds(spec.getPeriodSeconds());
    }
    return b;
  }

  /** Pod annotations asking Prometheus to scrape {@code port}/metrics. */
  public static Map<String, String> prometheusAnnotations(int port) {
    Map<String, String> a = new LinkedHashMap<>();
    a.put("prometheus.io/scrape", "true");
    a.put("prometheus.io/path", "/metrics");
    a.put("prometheus.io/port", Integer.toString(port));
    return a;
  }

  /**
   * Everything a member StatefulSet is assembled from.
   *
   * @param main the main container, with its own env, mounts, ports and probe; user env, envFrom,
   *     extra mounts and sidecars are added here
   * @param volumes the pod volumes the operator defines
   * @param claims the volume claim templates
   * @param podAnnotations annotations the operator adds to the pod template (they win over user ones)
   */
  public record Workload(
      TidbCluster tc, Component component, ComponentSpec spec, PodSettings pod, Container main,
      List<Volume> volumes, List<PersistentVolumeClaim> claims, Map<String, String> podAnnotations,
      StatefulSetPlan plan) {}

  public static StatefulSet statefulSet(Workload w) {
    TidbCluster tc = w.tc();
    String cluster = tc.getMetadata().getName();
    String instance = Labels.instanceOf(tc);
    SortedMap<String, String> selector = Labels.component(instance, w.component());
    ComponentSpec spec = w.spec();
    PodSettings pod = w.pod();

    ContainerBuilder mainBuilder = new ContainerBuilder(w.main())
        .withEnv(withUserEnv(w.main().getEnv(), spec.getEnv()))
        .withEnvFrom(spec.getEnvFrom())
        .addAllToVolumeMounts(spec.getAdditionalVolumeMounts() == null ? List.of() : spec.getAdditionalVolumeMounts());
    if (spec.getSecurityContext() != null) {
      mainBuilder.withSecurityContext(spec.getSecurityContext());
    }
    Container main = mainBuilder.build();
    List<Container> containers = Containers.mergeSidecars(main, spec.getAdditionalContainers());

    List<Volume> volumes = new ArrayList<>(w.volumes());
    if (spec.getAdditionalVolumes() != null) {
      volumes.addAll(spec.getAdditionalVolumes());
    }

    SortedMap<String, String> podLabels = new TreeMap<>(pod.labels());
    podLabels.putAll(selector);
    SortedMap<String, String> podAnnotations = new TreeMap<>(pod.annotations());
    podAnnotations.putAll(w.podAnnotations());

    String serviceAccount = null;
    if (spec instanceof MemberSpec member && member.getServiceAccount() != null
        && !member.getServiceAccount().isEmpty()) {
      serviceAccount = member.getServiceAccount();
    } else if (tc.getSpec().getServiceAccount() != null && !tc.getSpec().getServiceAccount().isEmpty()) {
      serviceAccount = tc.getSpec().getServiceAccount();
    }

    PodSpec podSpec = new PodSpecBuilder()
        .withContainers(containers)
        .withInitContainers(spec.getInitContainers())
        .withVolumes(volumes)
        .withServiceAccountName(serviceAccount)
        .withAutomountServiceAccountToken(spec.getAutomountServiceAccountToken())
        .withAffinity(pod.affinity())
        .withNodeSelector(pod.nodeSelector().isEmpty() ? null : pod.nodeSelector())
        .withTolerations(pod.tolerations())
        .withTopologySpreadConstraints(pod.topologySpreadConstraints(instance, w.component()))
        .withPriorityClassName(emptyToNull(pod.priorityClassName()))
        .withSchedulerName(emptyToNull(pod.schedulerName()))
        .withHostNetwork(pod.hostNetwork() ? Boolean.TRUE : null)
        .withDnsPolicy(emptyToNull(pod.dnsPolicy()))
        .withDnsConfig(pod.dnsConfig())
        .withSecurityContext(pod.podSecurityContext())
        .withImagePullSecrets(pod.imagePullSecrets())
        .withTerminationGracePeriodSeconds(spec.getTerminationGracePeriodSeconds())
        .build();

    StatefulSetUpdateStrategy strategy = pod.onDelete()
        ? new StatefulSetUpdateStrategyBuilder().withType("OnDelete").build()
        : new StatefulSetUpdateStrategyBuilder()
            .withType("RollingUpdate")
            .withNewRollingUpdate().withPartition(w.plan().partition()).endRollingUpdate()
            .build();

    StatefulSetSpec setSpec = new StatefulSetSpecBuilder()
        .withReplicas(w.plan().replicas())
        .withNewSelector().withMatchLabels(selector).endSelector()
        .withServiceName(Names.peerService(cluster, w.component()))
        .withPodManagementPolicy(pod.podManagementPolicy())
        .withUpdateStrategy(strategy)
        .build();
    // The pod template and the claim templates are set on the built objects: a nested builder
    // copies what it is given at every level (the pod spec five times over), which was half the
    // cost of building the StatefulSet.
    setSpec.setTemplate(new PodTemplateSpec(
        new ObjectMetaBuilder().withLabels(podLabels).withAnnotations(podAnnotations).build(), podSpec));
    setSpec.setVolumeClaimTemplates(new ArrayList<>(w.claims()));
    StatefulSet set = new StatefulSet();
    set.setMetadata(new ObjectMetaBuilder()
        .withName(Names.member(cluster, w.component()))
        .withNamespace(tc.getMetadata().getNamespace())
        .withLabels(selector)
        .withOwnerReferences(OwnerRefs.of(tc))
        .build());
    set.setSpec(setSpec);
    return set;
  }

  public static String emptyToNull(String s) {
    return s == null || s.isEmpty() ? null : s;
  }
}
