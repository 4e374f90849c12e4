package io.tidb.operator.controller.tidbcluster.tiproxy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.tidb.operator.api.v1alpha1.cluster.ComponentConfig;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.cluster.TiproxySpec;
import io.tidb.operator.controller.tidbcluster.member.ConfigMapNames;
import io.tidb.operator.controller.tidbcluster.member.Images;
import io.tidb.operator.controller.tidbcluster.member.Labels;
import io.tidb.operator.controller.tidbcluster.member.MemberPods;
import io.tidb.operator.controller.tidbcluster.member.Names;
import io.tidb.operator.controller.tidbcluster.member.OwnerRefs;
import io.tidb.operator.controller.tidbcluster.member.PodSettings;
import io.tidb.operator.controller.tidbcluster.member.StatefulSetPlan;
import io.tidb.operator.controller.tidbcluster.pipeline.Component;
import io.tidb.operator.controller.tidbcluster.pipeline.PdOwner;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The desired Kubernetes objects of a cluster's TiProxy, upstream's layout:
 *
 * <ul>
 *   <li>client Service {@code <tc>-tiproxy} (NodePort, ports {@code tiproxy-api} 3080 and {@code
 *       tiproxy-sql} 6000) and headless {@code <tc>-tiproxy-peer} ({@code tiproxy-api} 3080,
 *       {@code tiproxy-peer} 3081), both publishing not-ready addresses;
 *   <li>ConfigMap: {@code spec.tiproxy.config} as TOML with {@code workdir}, {@code
 *       proxy.pd-addrs} forced and {@code proxy.require-backend-tls} false unless set; the
 *       {@code security.*} certificate files of {@link TiproxyTls} (cluster and TiDB TLS, by
 *       {@code certLayout});
 *       and the start script ({@link TiproxyStartScript});
 *   <li>StatefulSet {@code <tc>-tiproxy}: container ports 6000, 3080, 3081, the config at {@code
 *       /etc/proxy/proxy.toml}, the {@code storageVolumes} claims.
 * </ul>
 */
public final class TiproxyObjects {

  public static final Component COMPONENT = new Component("tiproxy");

  static final int SQL_PORT = 6000;
  static final int API_PORT = 3080;
  static final int PEER_PORT = 3081;
  static final String CONFIG_DIR = "/etc/proxy";
  static final String CONFIG_FILE = CONFIG_DIR + "/proxy.toml";
  static final String SCRIPT_FILE = "tiproxy_start_script.sh";
  static final String WORK_DIR = "/var/lib/tiproxy/work";

  private TiproxyObjects() {}

  /** The client Service: NodePort with the API and SQL ports, as upstream. */
  public static Service clientService(TidbCluster tc) {
    String instance = Labels.instanceOf(tc);
    return MemberPods.dualStackIfPreferred(tc, new ServiceBuilder()
        .withNewMetadata()
        .withName(Names.member(tc.getMetadata().getName(), COMPONENT))
        .withNamespace(tc.getMetadata().getNamespace())
        .withLabels(Labels.clientService(instance, COMPONENT))
        .withOwnerReferences(OwnerRefs.of(tc))
        .endMetadata()
        .withNewSpec()
        .withType("NodePort")
        .withPorts(MemberPods.servicePort("tiproxy-api", API_PORT),
            MemberPods.servicePort("tiproxy-sql", SQL_PORT))
        .withSelector(Labels.component(instance, COMPONENT))
        .withPublishNotReadyAddresses(true)
        .endSpec()
        .build());
  }

  public static Service peerService(TidbCluster tc) {
    return MemberPods.peerService(tc, COMPONENT, List.of(
        MemberPods.servicePort("tiproxy-api", API_PORT),
        MemberPods.servicePort("tiproxy-peer", PEER_PORT)));
  }

  static TiproxyStartScript startScript(TidbCluster tc) {
    String cluster = tc.getMetadata().getName();
    return new TiproxyStartScript(Names.podHost("${POD_NAME}",
        Names.peerService(cluster, COMPONENT), tc.getMetadata().getNamespace(),
        MemberPods.clusterDomain(tc)));
  }

  /** The settings the operator sets on top of {@code spec.tiproxy.config}. */
  static Map<String, JsonNode> forcedConfig(TidbCluster tc) {
    ComponentConfig config = config(tc);
    Map<String, JsonNode> forced = new LinkedHashMap<>();
    forced.put("workdir", TextNode.valueOf(WORK_DIR));
    forced.put("proxy.pd-addrs",
        TextNode.valueOf(PdOwner.of(tc).clientAddress(tc.getMetadata().getNamespace())));
    if (config.get("proxy.require-backend-tls").isEmpty()) {
      forced.put("proxy.require-backend-tls", BooleanNode.FALSE);
    }
    forced.putAll(TiproxyTls.of(tc).config());
    return forced;
  }

  /** @param inUse the ConfigMap name the existing StatefulSet mounts, empty on creation */
  public static ConfigMap configMap(TidbCluster tc, Optional<String> inUse) {
    return MemberPods.configMap(tc, COMPONENT, settings(tc),
        MemberPods.configToml(tiproxy(tc).getConfig(), forcedConfig(tc)),
        startScript(tc).render(), inUse);
  }

  public static StatefulSet statefulSet(TidbCluster tc, ConfigMap configMap, StatefulSetPlan plan) {
    TiproxySpec tiproxy = tiproxy(tc);
    String cluster = tc.getMetadata().getName();
    PodSettings pod = settings(tc);
    List<VolumeMount> mounts = new ArrayList<>(List.of(
        MemberPods.mount(MemberPods.ANNOTATIONS_VOLUME, MemberPods.ANNOTATIONS_MOUNT, true),
        MemberPods.mount(ConfigMapNames.CONFIG_VOLUME, CONFIG_DIR, true),
        MemberPods.mount(MemberPods.STARTUP_SCRIPT_VOLUME, MemberPods.STARTUP_SCRIPT_DIR, true)));
    List<Volume> volumes = new ArrayList<>();
    volumes.add(MemberPods.annotationsVolume());
    volumes.addAll(MemberPods.configVolumes(configMap.getMetadata().getName(), "proxy.toml",
        SCRIPT_FILE));
    TiproxyTls.Plan tls = TiproxyTls.of(tc);
    mounts.addAll(tls.mounts());
    volumes.addAll(tls.volumes());
    List<PersistentVolumeClaim> claims = new ArrayList<>();
    List<VolumeMount> storageMounts = new ArrayList<>();
    MemberPods.storageVolumes(COMPONENT, tiproxy.getStorageVolumes(),
        tiproxy.getStorageClassName(), tiproxy.getVolumeAttributesClassName(), claims,
        storageMounts);
    mounts.addAll(storageMounts);
    List<EnvVar> env = new ArrayList<>(List.of(
        MemberPods.fieldEnv("POD_NAME", "metadata.name"),
        MemberPods.fieldEnv("NAMESPACE", "metadata.namespace"),
        MemberPods.env("HEADLESS_SERVICE_NAME", Names.peerService(cluster, COMPONENT)),
        MemberPods.env("TZ", pod.timezone())));
    ContainerBuilder main = new ContainerBuilder()
        .withName(COMPONENT.label())
        .withImage(image(tc))
        .withImagePullPolicy(pod.imagePullPolicy())
        .withCommand("/bin/sh", MemberPods.STARTUP_SCRIPT_DIR + "/" + SCRIPT_FILE)
        .withPorts(MemberPods.containerPort("tiproxy", SQL_PORT),
            MemberPods.containerPort("tiproxy-api", API_PORT),
            MemberPods.containerPort("tiproxy-peer", PEER_PORT))
        .withEnv(env)
        .withVolumeMounts(mounts)
        .withResources(MemberPods.resources(tiproxy));
    Map<String, String> annotations = new LinkedHashMap<>(MemberPods.prometheusAnnotations(API_PORT));
    annotations.put("prometheus.io/path", "/api/metrics");
    return MemberPods.statefulSet(new MemberPods.Workload(tc, COMPONENT, tiproxy, pod,
        main.build(), volumes, claims, annotations, plan));
  }

  /** The TiProxy image: {@code baseImage:version} (see {@link Images}). */
  public static String image(TidbCluster tc) {
    TiproxySpec tiproxy = tiproxy(tc);
    return Images.resolve(COMPONENT, tiproxy.getBaseImage(), tiproxy.getImage(),
        tiproxy.getVersion(), tc.getSpec().getVersion());
  }

  static PodSettings settings(TidbCluster tc) {
    return PodSettings.resolve(tc.getSpec(), tiproxy(tc));
  }

  private static ComponentConfig config(TidbCluster tc) {
    ComponentConfig c = tiproxy(tc).getConfig();
    return c == null ? ComponentConfig.empty() : c;
  }

  private static TiproxySpec tiproxy(TidbCluster tc) {
    TiproxySpec tiproxy = tc.getSpec().getTiproxy();
    if (tiproxy == null) {
      throw new IllegalArgumentException(
          "spec.tiproxy: Required value: the cluster has no TiProxy to build objects for");
    }
    return tiproxy;
  }
}
