package io.tidb.operator.controller.tidbcluster.pd;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.tidb.operator.api.v1alpha1.cluster.PdSpec;
import io.tidb.operator.api.v1alpha1.cluster.ServiceRef;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.shared.ServiceSpec;
import io.tidb.operator.controller.tidbcluster.member.DnsWait;
import io.tidb.operator.controller.tidbcluster.member.StartScriptFetch;
import io.tidb.operator.controller.tidbcluster.member.StartScriptVersion;
import io.tidb.operator.controller.tidbcluster.member.ConfigMapNames;
import io.tidb.operator.controller.tidbcluster.member.Images;
import io.tidb.operator.controller.tidbcluster.member.Labels;
import io.tidb.operator.controller.tidbcluster.member.MemberPods;
import io.tidb.operator.controller.tidbcluster.member.Names;
import io.tidb.operator.controller.tidbcluster.member.OwnerRefs;
import io.tidb.operator.controller.tidbcluster.member.PodSettings;
import io.tidb.operator.controller.tidbcluster.member.StatefulSetPlan;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterAddresses;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The desired Kubernetes objects of a cluster's PD. Pure functions of a defaulted, valid
 * {@link TidbCluster} with {@code spec.pd} set (and a {@code metadata.uid}) plus the inputs the
 * operator decides; they return fresh objects holding only the fields the operator owns, ready for
 * server-side apply.
 *
 * <ul>
 *   <li>{@link #clientService}: {@code <tc>-pd}, port 2379 named {@code client}; type, annotations,
 *       labels, loadBalancerIP, clusterIP and port name from {@code spec.pd.service} (type also from
 *       the deprecated {@code spec.services[name=pd]}).
 *   <li>{@link #peerService}: headless {@code <tc>-pd-peer}, ports 2380 and 2379,
 *       {@code publishNotReadyAddresses: true}.
 *   <li>{@link #configMap}: {@code config-file} (spec.pd.config as TOML, with TLS paths forced in when
 *       {@code spec.tlsCluster.enabled}, and {@code dashboard.internal-proxy} from
 *       {@code spec.pd.enableDashboardInternalProxy}) and {@code startup-script}
 *       ({@link PdStartScript}); named per {@link ConfigMapNames}.
 *   <li>{@link #statefulSet}: {@code <tc>-pd}; apply it after the ConfigMap it mounts.
 * </ul>
 */
public final class PdObjects {

  /** PD's peer (etcd raft) port. Its client port is {@link ClusterAddresses#PD_CLIENT_PORT}. */
  public static final int PEER_PORT = 2380;
  static final String CONFIG_DIR = "/etc/pd";
  static final String TLS_VOLUME = "pd-tls";
  static final String TLS_DIR = "/var/lib/pd-tls";
  static final String SCRIPT_FILE = "pd_start_script.sh";

  private PdObjects() {}

  public static Service clientService(TidbCluster tc) {
    String instance = Labels.instanceOf(tc);
    ServiceSpec svc = pd(tc).getService();
    SortedMap<String, String> labels = new TreeMap<>();
    if (svc != null && svc.getLabels() != null) {
      labels.putAll(svc.getLabels());
    }
    labels.putAll(Labels.clientService(instance, ClusterAddresses.PD));
    String type = serviceType(tc, svc);
    ServiceBuilder b = new ServiceBuilder()
        .withNewMetadata()
        .withName(Names.member(tc.getMetadata().getName(), ClusterAddresses.PD))
        .withNamespace(tc.getMetadata().getNamespace())
        .withLabels(labels)
        .withAnnotations(svc == null || svc.getAnnotations() == null ? null : new TreeMap<>(svc.getAnnotations()))
        .withOwnerReferences(OwnerRefs.of(tc))
        .endMetadata()
        .withNewSpec()
        .withType(type)
        .withPorts(MemberPods.servicePort(
            svc != null && svc.getPortName() != null ? svc.getPortName() : "client", ClusterAddresses.PD_CLIENT_PORT))
        .withSelector(Labels.component(instance, ClusterAddresses.PD))
        .endSpec();
    if (svc != null) {
      b.editSpec()
          .withClusterIP(MemberPods.emptyToNull(svc.getClusterIP()))
          .withLoadBalancerIP("LoadBalancer".equals(type) ? MemberPods.emptyToNull(svc.getLoadBalancerIP()) : null)
          .endSpec();
    }
    return MemberPods.dualStackIfPreferred(tc, b.build());
  }

  public static Service peerService(TidbCluster tc) {
    return MemberPods.peerService(tc, ClusterAddresses.PD, List.of(
        MemberPods.servicePort("tcp-peer-" + PdObjects.PEER_PORT, PdObjects.PEER_PORT),
        MemberPods.servicePort("tcp-peer-" + ClusterAddresses.PD_CLIENT_PORT, ClusterAddresses.PD_CLIENT_PORT)));
  }

  /** The start script for this cluster's PD pods. */
  public static PdStartScript startScript(TidbCluster tc) {
    PdSpec pd = pd(tc);
    return new PdStartScript(
        tc.getMetadata().getName(), tc.getMetadata().getNamespace(), MemberPods.clusterDomain(tc),
        MemberPods.scheme(tc), dataDir(pd), DnsWait.startTimeout(tc),
        Boolean.TRUE.equals(tc.getSpec().getAcrossK8s()), StartScriptFetch.of(tc, TLS_DIR),
        pd.getInitWaitTime() == null || pd.getInitWaitTime() < 0 ? 0 : pd.getInitWaitTime(),
        "v1".equals(pd.getStartUpScriptVersion()), StartScriptVersion.of(tc));
  }

  /**
   * @param inUse the ConfigMap name the existing PD StatefulSet mounts ({@link ConfigMapNames#inUse}),
   *     empty on first creation
   */
  public static ConfigMap configMap(TidbCluster tc, Optional<String> inUse) {
    PdSpec pd = pd(tc);
    Map<String, JsonNode> forced = new LinkedHashMap<>();
    if (MemberPods.tlsCluster(tc)) {
      forced.putAll(MemberPods.tlsPaths(
          "security.cacert-path", "security.cert-path", "security.key-path", TLS_DIR));
    }
    if (pd.getEnableDashboardInternalProxy() != null) {
      forced.put("dashboard.internal-proxy", BooleanNode.valueOf(pd.getEnableDashboardInternalProxy()));
    }
    return MemberPods.configMap(tc, ClusterAddresses.PD, settings(tc),
        MemberPods.configToml(pd.getConfig(), forced), startScript(tc).render(), inUse);
  }

  /**
   * @param configMap the ConfigMap from {@link #configMap}; the pods mount it by name
   * @param plan replicas and RollingUpdate partition
   */
  public static StatefulSet statefulSet(TidbCluster tc, ConfigMap configMap, StatefulSetPlan plan) {
    PdSpec pd = pd(tc);
    String cluster = tc.getMetadata().getName();
    PodSettings pod = settings(tc);
    boolean tls = MemberPods.tlsCluster(tc);

    List<VolumeMount> mounts = new ArrayList<>(List.of(
        MemberPods.mount(MemberPods.ANNOTATIONS_VOLUME, MemberPods.ANNOTATIONS_MOUNT, true),
        MemberPods.mount(ConfigMapNames.CONFIG_VOLUME, CONFIG_DIR, true),
        MemberPods.mount(MemberPods.STARTUP_SCRIPT_VOLUME, MemberPods.STARTUP_SCRIPT_DIR, true),
        MemberPods.mount(ClusterAddresses.PD.label(), PdStartScript.DATA_MOUNT, false)));
    List<Volume> volumes = new ArrayList<>();
    volumes.add(MemberPods.annotationsVolume());
    volumes.addAll(MemberPods.configVolumes(configMap.getMetadata().getName(), "pd.toml", SCRIPT_FILE));
    if (tls) {
      mounts.add(MemberPods.mount(TLS_VOLUME, TLS_DIR, true));
      volumes.add(MemberPods.secretVolume(TLS_VOLUME, MemberPods.clusterTlsSecret(cluster, ClusterAddresses.PD)));
      if (Boolean.TRUE.equals(pd.getMountClusterClientSecret())) {
        mounts.add(MemberPods.mount(MemberPods.CLUSTER_CLIENT_VOLUME, MemberPods.CLUSTER_CLIENT_MOUNT, true));
        volumes.add(MemberPods.secretVolume(MemberPods.CLUSTER_CLIENT_VOLUME, MemberPods.clusterClientSecret(cluster)));
      }
    }
    List<PersistentVolumeClaim> claims = new ArrayList<>();
    claims.add(MemberPods.claimTemplate(ClusterAddresses.PD.label(),
        MemberPods.storageRequest(pd, "spec.pd"), pd.getStorageClassName(), pd.getVolumeAttributesClassName()));
    MemberPods.storageVolumes(ClusterAddresses.PD, pd.getStorageVolumes(), pd.getStorageClassName(),
        pd.getVolumeAttributesClassName(), claims, mounts);

    List<EnvVar> env = new ArrayList<>(List.of(
        MemberPods.fieldEnv("NAMESPACE", "metadata.namespace"),
        MemberPods.env("PEER_SERVICE_NAME", Names.peerService(cluster, ClusterAddresses.PD)),
        MemberPods.env("SERVICE_NAME", Names.member(cluster, ClusterAddresses.PD)),
        MemberPods.env("SET_NAME", Names.member(cluster, ClusterAddresses.PD)),
        MemberPods.env("TZ", pod.timezone())));
    if (pod.hostNetwork()) {
      env.add(MemberPods.fieldEnv("POD_NAME", "metadata.name"));
    }

    ContainerBuilder main = new ContainerBuilder()
        .withName(ClusterAddresses.PD.label())
        .withImage(image(tc))
        .withImagePullPolicy(pod.imagePullPolicy())
        .withCommand("/bin/sh", MemberPods.STARTUP_SCRIPT_DIR + "/" + SCRIPT_FILE)
        .withPorts(
            MemberPods.containerPort("server", PdObjects.PEER_PORT),
            MemberPods.containerPort("client", ClusterAddresses.PD_CLIENT_PORT))
        .withEnv(env)
        .withVolumeMounts(mounts)
        .withResources(MemberPods.resources(pd));
    if (pd.getReadinessProbe() != null) {
      main.withReadinessProbe(MemberPods.tcpReadiness(ClusterAddresses.PD_CLIENT_PORT, pd.getReadinessProbe()));
    }
    Container container = main.build();

    return MemberPods.statefulSet(new MemberPods.Workload(tc, ClusterAddresses.PD, pd, pod, container, volumes,
        claims, MemberPods.prometheusAnnotations(ClusterAddresses.PD_CLIENT_PORT), plan));
  }

  /** The PD image: {@code baseImage:version} (see {@link Images}). */
  public static String image(TidbCluster tc) {
    PdSpec pd = pd(tc);
    return Images.resolve(ClusterAddresses.PD, pd.getBaseImage(), pd.getImage(), pd.getVersion(),
        tc.getSpec().getVersion());
  }

  static PodSettings settings(TidbCluster tc) {
    return PodSettings.resolve(tc.getSpec(), pd(tc));
  }

  static String dataDir(PdSpec pd) {
    String sub = pd.getDataSubDir();
    return sub == null || sub.isEmpty() ? PdStartScript.DATA_MOUNT : PdStartScript.DATA_MOUNT + "/" + sub;
  }

  /** The client Service type: spec.pd.service.type, else spec.services[name=pd].type, else ClusterIP. */
  static String serviceType(TidbCluster tc, ServiceSpec svc) {
    if (svc != null && svc.getType() != null && !svc.getType().isEmpty()) {
      return svc.getType();
    }
    if (tc.getSpec().getServices() != null) {
      for (ServiceRef ref : tc.getSpec().getServices()) {
        if (ClusterAddresses.PD.label().equals(ref.getName()) && ref.getType() != null && !ref.getType().isEmpty()) {
          return ref.getType();
        }
      }
    }
    return "ClusterIP";
  }

  private static PdSpec pd(TidbCluster tc) {
    PdSpec pd = tc.getSpec().getPd();
    if (pd == null) {
      throw new IllegalArgumentException("spec.pd: Required value: the cluster has no PD to build objects for");
    }
    return pd;
  }
}
