package io.tidb.operator.controller.dmcluster;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
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
import io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSetUpdateStrategy;
import io.fabric8.kubernetes.api.model.apps.StatefulSetUpdateStrategyBuilder;
import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.v1alpha1.cluster.TidbClusterSpec;
import io.tidb.operator.api.v1alpha1.dm.DmCluster;
import io.tidb.operator.api.v1alpha1.dm.DmMemberSpec;
import io.tidb.operator.api.v1alpha1.dm.MasterServiceSpec;
import io.tidb.operator.controller.tidbcluster.member.Containers;
import io.tidb.operator.controller.tidbcluster.member.PodSettings;
import io.tidb.operator.controller.tidbcluster.member.StatefulSetPlan;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The desired objects of a DMCluster, as upstream lays them out: for dm-master a client Service
 * (8261), a headless peer Service (8261, 8291), a ConfigMap and a StatefulSet; for dm-worker a
 * headless peer Service (8262), a ConfigMap and a StatefulSet. Pod settings follow the same
 * cluster-then-component precedence as TidbCluster ({@link PodSettings}). Pure.
 */
public final class DmObjects {

  /** Worker data volume size when the spec gives none (upstream's documented default). */
  public static final String DEFAULT_STORAGE = "10Gi";

  /** Where {@code spec.tlsClientSecretNames} are mounted, one directory per Secret, as upstream. */
  public static final String SOURCE_TLS_DIR = "/var/lib/source-tls";

  private DmObjects() {}

  public static OwnerReference owner(DmCluster dc) {
    return new OwnerReferenceBuilder()
        .withApiVersion(DmCluster.GROUP + "/" + DmCluster.VERSION)
        .withKind("DMCluster")
        .withName(dc.getMetadata().getName())
        .withUid(dc.getMetadata().getUid())
        .withController(true)
        .withBlockOwnerDeletion(true)
        .build();
  }

  private static ObjectMeta meta(DmCluster dc, String name, SortedMap<String, String> labels) {
    return new ObjectMetaBuilder()
        .withName(name)
        .withNamespace(dc.getMetadata().getNamespace())
        .withLabels(labels)
        .withOwnerReferences(owner(dc))
        .build();
  }

  // ---------------------------------------------------------------- Services

  public static Service masterService(DmCluster dc) {
    String name = dc.getMetadata().getName();
    String instance = DmLabels.instanceOf(dc);
    MasterServiceSpec spec = dc.getSpec().getMaster().getService();
    String type = spec == null || spec.getType() == null ? "ClusterIP" : spec.getType();
    ServicePortBuilder port = new ServicePortBuilder()
        .withName(spec != null && spec.getPortName() != null ? spec.getPortName() : "dm-master")
        .withPort(spec != null && spec.getPort() != null ? spec.getPort() : DmConfigFiles.MASTER_PORT)
        .withNewTargetPort(DmConfigFiles.MASTER_PORT)
        .withProtocol("TCP");
    if (spec != null && spec.getMasterNodePort() != null && spec.getMasterNodePort() > 0
        && ("NodePort".equals(type) || "LoadBalancer".equals(type))) {
      port.withNodePort(spec.getMasterNodePort());
    }
    SortedMap<String, String> labels = DmLabels.service(instance, DmLabels.MASTER, false);
    if (spec != null && spec.getLabels() != null) {
      labels.putAll(spec.getLabels());
      labels.putAll(DmLabels.service(instance, DmLabels.MASTER, false));
    }
    ObjectMeta meta = meta(dc, DmNames.master(name), labels);
    if (spec != null && spec.getAnnotations() != null) {
      meta.setAnnotations(new TreeMap<>(spec.getAnnotations()));
    }
    return new ServiceBuilder()
        .withMetadata(meta)
        .withNewSpec()
        .withType(type)
        .withPorts(port.build())
        .withSelector(DmLabels.component(instance, DmLabels.MASTER))
        .withClusterIP(spec == null ? null : spec.getClusterIP())
        .withLoadBalancerIP(spec == null ? null : spec.getLoadBalancerIP())
        .withLoadBalancerSourceRanges(spec == null ? null : spec.getLoadBalancerSourceRanges())
        .withLoadBalancerClass(spec == null ? null : spec.getLoadBalancerClass())
        .withExternalTrafficPolicy(spec == null ? null : spec.getExternalTrafficPolicy())
        .endSpec()
        .build();
  }

  public static Service masterPeerService(DmCluster dc) {
    return peerService(dc, DmNames.masterPeer(dc.getMetadata().getName()), DmLabels.MASTER, List.of(
        port("dm-master", DmConfigFiles.MASTER_PORT), port("dm-master-peer", DmConfigFiles.MASTER_PEER_PORT)));
  }

  public static Service workerPeerService(DmCluster dc) {
    return peerService(dc, DmNames.workerPeer(dc.getMetadata().getName()), DmLabels.WORKER,
        List.of(port("dm-worker", DmConfigFiles.WORKER_PORT)));
  }

  private static Service peerService(DmCluster dc, String name, String component, List<ServicePort> ports) {
    String instance = DmLabels.instanceOf(dc);
    return new ServiceBuilder()
        .withMetadata(meta(dc, name, DmLabels.service(instance, component, true)))
        .withNewSpec()
        .withClusterIP("None")
        .withPublishNotReadyAddresses(true)
        .withPorts(ports)
        .withSelector(DmLabels.component(instance, component))
        .endSpec()
        .build();
  }

  private static ServicePort port(String name, int port) {
    return new ServicePortBuilder().withName(name).withPort(port).withNewTargetPort(port)
        .withProtocol("TCP").build();
  }

  // ---------------------------------------------------------------- ConfigMaps

  public static ConfigMap masterConfigMap(DmCluster dc) {
    return configMap(dc, DmNames.master(dc.getMetadata().getName()), DmLabels.MASTER,
        DmConfigFiles.masterConfig(dc), DmConfigFiles.masterScript(dc));
  }

  public static ConfigMap workerConfigMap(DmCluster dc) {
    return configMap(dc, DmNames.worker(dc.getMetadata().getName()), DmLabels.WORKER,
        DmConfigFiles.workerConfig(dc), DmConfigFiles.workerScript(dc));
  }

  private static ConfigMap configMap(DmCluster dc, String name, String component, String config, String script) {
    Map<String, String> data = new TreeMap<>();
    data.put(DmConfigFiles.CONFIG_KEY, config);
    data.put(DmConfigFiles.SCRIPT_KEY, script);
    return new ConfigMapBuilder()
        .withMetadata(meta(dc, name, DmLabels.component(DmLabels.instanceOf(dc), component)))
        .withData(data)
        .build();
  }

  // ---------------------------------------------------------------- StatefulSets

  public static StatefulSet masterStatefulSet(DmCluster dc, StatefulSetPlan plan) {
    String name = dc.getMetadata().getName();
    List<EnvVar> env = List.of(
        env("PEER_SERVICE_NAME", DmNames.masterPeer(name)),
        env("SERVICE_NAME", DmNames.master(name)),
        env("SET_NAME", DmNames.master(name)));
    return statefulSet(dc, dc.getSpec().getMaster(), DmLabels.MASTER, DmNames.master(name),
        DmNames.masterPeer(name), DmConfigFiles.MASTER_DATA_DIR, "/etc/dm-master", "dm-master.toml",
        "dm_master_start_script.sh", DmConfigFiles.MASTER_TLS_DIR,
        List.of(containerPort("client", DmConfigFiles.MASTER_PORT), containerPort("server", DmConfigFiles.MASTER_PEER_PORT)),
        DmConfigFiles.MASTER_PORT, env, plan);
  }

  public static StatefulSet workerStatefulSet(DmCluster dc, StatefulSetPlan plan) {
    String name = dc.getMetadata().getName();
    List<EnvVar> env = List.of(
        env("HEADLESS_SERVICE_NAME", DmNames.workerPeer(name)),
        env("SET_NAME", DmNames.worker(name)));
    return statefulSet(dc, dc.getSpec().getWorker(), DmLabels.WORKER, DmNames.worker(name),
        DmNames.workerPeer(name), DmConfigFiles.WORKER_DATA_DIR, "/etc/dm-worker", "dm-worker.toml",
        "dm_worker_start_script.sh", DmConfigFiles.WORKER_TLS_DIR,
        List.of(containerPort("client", DmConfigFiles.WORKER_PORT)), DmConfigFiles.WORKER_PORT, env, plan);
  }

  /** The image: the deprecated {@code image} when set, else {@code baseImage:version}. */
  public static String image(DmCluster dc, DmMemberSpec member) {
    if (member.getImage() != null && !member.getImage().isEmpty()) {
      return member.getImage();
    }
    String version = member.getVersion() != null ? member.getVersion() : dc.getSpec().getVersion();
    String base = member.getBaseImage() == null ? "pingcap/dm" : member.getBaseImage();
    return version == null || version.isEmpty() ? base : base + ":" + version;
  }

  /** The cluster-level pod settings merged with the component's, as for a TidbCluster. */
  static PodSettings podSettings(DmCluster dc, io.tidb.operator.api.v1alpha1.cluster.ComponentSpec member) {
    ObjectNode cluster = (ObjectNode) ApiObjects.toTree(dc.getSpec());
    cluster.remove(List.of("master", "worker", "discovery", "tlsCluster"));
    return PodSettings.resolve(ApiObjects.fromTree(cluster, TidbClusterSpec.class), member);
  }

  private static StatefulSet statefulSet(
      DmCluster dc, DmMemberSpec member, String component, String setName, String peerService,
      String dataDir, String configDir, String configFile, String scriptFile, String tlsDir,
      List<io.fabric8.kubernetes.api.model.ContainerPort> ports, int probePort, List<EnvVar> extraEnv,
      StatefulSetPlan plan) {
    String instance = DmLabels.instanceOf(dc);
    PodSettings settings = podSettings(dc, member);
    SortedMap<String, String> selector = DmLabels.component(instance, component);
    SortedMap<String, String> podLabels = new TreeMap<>(settings.labels());
    podLabels.putAll(selector);

    List<EnvVar> env = new ArrayList<>();
    env.add(new EnvVarBuilder().withName("NAMESPACE").withNewValueFrom().withNewFieldRef()
        .withFieldPath("metadata.namespace").endFieldRef().endValueFrom().build());
    env.add(new EnvVarBuilder().withName("POD_NAME").withNewValueFrom().withNewFieldRef()
        .withFieldPath("metadata.name").endFieldRef().endValueFrom().build());
    env.addAll(extraEnv);
    env.add(env("TZ", settings.timezone()));
    if (member.getEnv() != null) {
      env.addAll(member.getEnv());
    }
    List<VolumeMount> mounts = new ArrayList<>(List.of(
        mount("annotations", "/etc/podinfo"),
        mount("config", configDir),
        mount("startup-script", "/usr/local/bin"),
        mount(component, dataDir)));
    List<Volume> volumes = new ArrayList<>();
    volumes.add(new VolumeBuilder().withName("annotations").withNewDownwardAPI().addNewItem()
        .withPath("annotations").withNewFieldRef().withFieldPath("metadata.annotations").endFieldRef()
        .endItem().endDownwardAPI().build());
    volumes.add(new VolumeBuilder().withName("config").withNewConfigMap().withName(setName)
        .addNewItem().withKey(DmConfigFiles.CONFIG_KEY).withPath(configFile).endItem().endConfigMap().build());
    volumes.add(new VolumeBuilder().withName("startup-script").withNewConfigMap().withName(setName)
        .addNewItem().withKey(DmConfigFiles.SCRIPT_KEY).withPath(scriptFile).endItem().endConfigMap().build());
    if (DmConfigFiles.tls(dc)) {
      String secret = dc.getMetadata().getName() + "-" + component + "-cluster-secret";
      mounts.add(mount(component + "-tls", tlsDir));
      volumes.add(new VolumeBuilder().withName(component + "-tls").withNewSecret().withSecretName(secret)
          .endSecret().build());
    }
    if (dc.getSpec().getTlsClientSecretNames() != null) {
      // upstream: each Secret for the upstream sources' TLS at /var/lib/source-tls/<name>
      for (String secret : dc.getSpec().getTlsClientSecretNames()) {
        mounts.add(new VolumeMountBuilder().withName(secret).withReadOnly(true)
            .withMountPath(SOURCE_TLS_DIR + "/" + secret).build());
        volumes.add(new VolumeBuilder().withName(secret).withNewSecret().withSecretName(secret)
            .endSecret().build());
      }
    }
    if (member.getAdditionalVolumeMounts() != null) {
      mounts.addAll(member.getAdditionalVolumeMounts());
    }
    if (member.getAdditionalVolumes() != null) {
      volumes.addAll(member.getAdditionalVolumes());
    }
    Container main = new ContainerBuilder()
        .withName(component)
        .withImage(image(dc, member))
        .withImagePullPolicy(settings.imagePullPolicy())
        .withCommand("/bin/sh", "/usr/local/bin/" + scriptFile)
        .withPorts(ports)
        .withEnv(env)
        .withEnvFrom(member.getEnvFrom())
        .withVolumeMounts(mounts)
        .withResources(resources(member))
        .withSecurityContext(member.getSecurityContext())
        .withNewReadinessProbe().withNewTcpSocket().withNewPort(probePort).endTcpSocket()
        .withInitialDelaySeconds(10).endReadinessProbe()
        .build();
    StatefulSetUpdateStrategy strategy = settings.onDelete()
        ? new StatefulSetUpdateStrategyBuilder().withType("OnDelete").build()
        : new StatefulSetUpdateStrategyBuilder().withType("RollingUpdate").withNewRollingUpdate()
            .withPartition(plan.partition()).endRollingUpdate().build();
    ObjectMeta podMeta = new ObjectMetaBuilder().withLabels(podLabels)
        .withAnnotations(settings.annotations().isEmpty() ? null : settings.annotations()).build();
    return new StatefulSetBuilder()
        .withMetadata(meta(dc, setName, selector))
        .withNewSpec()
        .withReplicas(plan.replicas())
        .withServiceName(peerService)
        .withPodManagementPolicy(settings.podManagementPolicy())
        .withUpdateStrategy(strategy)
        .withNewSelector().withMatchLabels(selector).endSelector()
        .withNewTemplate()
        .withMetadata(podMeta)
        .withNewSpec()
        .withSchedulerName(settings.schedulerName())
        .withAffinity(settings.affinity())
        .withNodeSelector(settings.nodeSelector().isEmpty() ? null : settings.nodeSelector())
        .withTolerations(settings.tolerations())
        .withPriorityClassName(settings.priorityClassName())
        .withHostNetwork(settings.hostNetwork() ? true : null)
        .withDnsPolicy(settings.dnsPolicy())
        .withDnsConfig(settings.dnsConfig())
        .withSecurityContext(settings.podSecurityContext())
        .withImagePullSecrets(settings.imagePullSecrets())
        .withTerminationGracePeriodSeconds(member.getTerminationGracePeriodSeconds())
        .withInitContainers(member.getInitContainers())
        .withContainers(Containers.mergeSidecars(main, member.getAdditionalContainers()))
        .withVolumes(volumes)
        .endSpec()
        .endTemplate()
        .withVolumeClaimTemplates(claim(component, selector, member))
        .endSpec()
        .build();
  }

  private static PersistentVolumeClaim claim(String name, SortedMap<String, String> labels, DmMemberSpec member) {
    String size = member.getStorageSize() == null || member.getStorageSize().isEmpty()
        ? DEFAULT_STORAGE : member.getStorageSize();
    return new PersistentVolumeClaimBuilder()
        .withNewMetadata().withName(name).withLabels(labels).endMetadata()
        .withNewSpec()
        .withAccessModes("ReadWriteOnce")
        .withStorageClassName(member.getStorageClassName())
        .withVolumeAttributesClassName(member.getVolumeAttributesClassName())
        .withNewResources().addToRequests("storage", new Quantity(size)).endResources()
        .endSpec()
        .build();
  }

  private static ResourceRequirements resources(DmMemberSpec member) {
    Map<String, Quantity> requests = withoutStorage(member.getRequests());
    Map<String, Quantity> limits = withoutStorage(member.getLimits());
    if (requests == null && limits == null) {
      return null;
    }
    return new ResourceRequirementsBuilder().withRequests(requests).withLimits(limits).build();
  }

  private static Map<String, Quantity> withoutStorage(Map<String, Quantity> in) {
    if (in == null) {
      return null;
    }
    Map<String, Quantity> out = new TreeMap<>(in);
    out.remove("storage");
    return out.isEmpty() ? null : out;
  }

  private static EnvVar env(String name, String value) {
    return new EnvVarBuilder().withName(name).withValue(value).build();
  }

  private static VolumeMount mount(String name, String path) {
    return new VolumeMountBuilder().withName(name).withMountPath(path).build();
  }

  private static io.fabric8.kubernetes.api.model.ContainerPort containerPort(String name, int port) {
    return new io.fabric8.kubernetes.api.model.ContainerPortBuilder().withName(name)
        .withContainerPort(port).withProtocol("TCP").build();
  }
}
