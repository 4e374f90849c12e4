package io.tidb.operator.controller.tidbcluster.ticdc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.tidb.operator.api.v1alpha1.cluster.ComponentConfig;
import io.tidb.operator.api.v1alpha1.cluster.TicdcSpec;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.controller.tidbcluster.member.ConfigMapNames;
import io.tidb.operator.controller.tidbcluster.member.Images;
import io.tidb.operator.controller.tidbcluster.member.AcrossK8sPd;
import io.tidb.operator.controller.tidbcluster.member.StartScriptVersion;
import io.tidb.operator.controller.tidbcluster.member.MemberPods;
import io.tidb.operator.controller.tidbcluster.member.Names;
import io.tidb.operator.controller.tidbcluster.member.PodSettings;
import io.tidb.operator.controller.tidbcluster.member.StatefulSetPlan;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterAddresses;
import io.tidb.operator.controller.tidbcluster.pipeline.PdOwner;
import io.tidb.operator.controller.tidbcluster.pipeline.Component;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The desired Kubernetes objects of a cluster's TiCDC, upstream's layout: headless Service
 * {@code <tc>-ticdc-peer} (port 8301 {@code ticdc}); ConfigMap with {@code spec.ticdc.config} as
 * TOML and the start script ({@link TicdcStartScript}); StatefulSet {@code <tc>-ticdc} with the
 * {@code storageVolumes} claims. TiCDC keeps no data of its own by default.
 */
public final class TicdcObjects {

  public static final Component COMPONENT = new Component("ticdc");

  /** TiCDC's API and advertise port. */
  static final int PORT = 8301;
  static final String CONFIG_DIR = "/etc/ticdc";
  static final String TLS_VOLUME = "ticdc-tls";
  static final String TLS_DIR = "/var/lib/ticdc-tls";
  static final String SCRIPT_FILE = "ticdc_start_script.sh";

  /** The settings upstream passes as flags rather than in the config file. */
  private static final Set<String> FLAG_SETTINGS = Set.of("gc-ttl", "log-file", "log-level");

  private TicdcObjects() {}

  public static Service peerService(TidbCluster tc) {
    return MemberPods.peerService(tc, COMPONENT, List.of(MemberPods.servicePort("ticdc", PORT)));
  }

  static TicdcStartScript startScript(TidbCluster tc) {
    String cluster = tc.getMetadata().getName();
    ComponentConfig config = config(tc);
    return new TicdcStartScript(
        Names.podHost("${POD_NAME}", Names.peerService(cluster, COMPONENT),
            tc.getMetadata().getNamespace(), MemberPods.clusterDomain(tc)),
        config.get("gc-ttl").filter(JsonNode::canConvertToInt).map(JsonNode::asInt).orElse(86400),
        config.get("log-file").filter(JsonNode::isTextual).map(JsonNode::asText).orElse("/dev/stderr"),
        config.get("log-level").filter(JsonNode::isTextual).map(JsonNode::asText).orElse("info"),
        MemberPods.scheme(tc) + "://" + PdOwner.of(tc).clientAddress(tc.getMetadata().getNamespace()),
        MemberPods.tlsCluster(tc),
        hasFileSettings(config),
        AcrossK8sPd.withScheme(
            tc, MemberPods.scheme(tc) + "://" + ClusterAddresses.pdClient(cluster), TLS_DIR),
        StartScriptVersion.of(tc));
  }

  private static boolean hasFileSettings(ComponentConfig config) {
    ObjectNode tree = config.tree();
    List<String> keys = new ArrayList<>();
    tree.fieldNames().forEachRemaining(keys::add);
    return keys.stream().anyMatch(k -> !FLAG_SETTINGS.contains(k));
  }

  /** @param inUse the ConfigMap name the existing StatefulSet mounts, empty on creation */
  public static ConfigMap configMap(TidbCluster tc, Optional<String> inUse) {
    return MemberPods.configMap(tc, COMPONENT, settings(tc),
        MemberPods.configToml(ticdc(tc).getConfig(), Map.of()), startScript(tc).render(), inUse);
  }

  public static StatefulSet statefulSet(TidbCluster tc, ConfigMap configMap, StatefulSetPlan plan) {
    TicdcSpec ticdc = ticdc(tc);
    String cluster = tc.getMetadata().getName();
    PodSettings pod = settings(tc);
    List<VolumeMount> mounts = new ArrayList<>(List.of(
        MemberPods.mount(MemberPods.ANNOTATIONS_VOLUME, MemberPods.ANNOTATIONS_MOUNT, true),
        MemberPods.mount(ConfigMapNames.CONFIG_VOLUME, CONFIG_DIR, true),
        MemberPods.mount(MemberPods.STARTUP_SCRIPT_VOLUME, MemberPods.STARTUP_SCRIPT_DIR, true)));
    List<Volume> volumes = new ArrayList<>();
    volumes.add(MemberPods.annotationsVolume());
    volumes.addAll(MemberPods.configVolumes(configMap.getMetadata().getName(), "ticdc.toml", SCRIPT_FILE));
    if (MemberPods.tlsCluster(tc)) {
      mounts.add(MemberPods.mount(TLS_VOLUME, TLS_DIR, true));
      volumes.add(MemberPods.secretVolume(TLS_VOLUME, MemberPods.clusterTlsSecret(cluster, COMPONENT)));
    }
    List<PersistentVolumeClaim> claims = new ArrayList<>();
    List<VolumeMount> storageMounts = new ArrayList<>();
    MemberPods.storageVolumes(COMPONENT, ticdc.getStorageVolumes(), ticdc.getStorageClassName(),
        ticdc.getVolumeAttributesClassName(), claims, storageMounts);
    mounts.addAll(storageMounts);
    List<EnvVar> env = new ArrayList<>(List.of(
        MemberPods.fieldEnv("NAMESPACE", "metadata.namespace"),
        MemberPods.fieldEnv("POD_NAME", "metadata.name"),
        MemberPods.env("TZ", pod.timezone())));
    ContainerBuilder main = new ContainerBuilder()
        .withName(COMPONENT.label())
        .withImage(image(tc))
        .withImagePullPolicy(pod.imagePullPolicy())
        .withCommand("/bin/sh", MemberPods.STARTUP_SCRIPT_DIR + "/" + SCRIPT_FILE)
        .withPorts(MemberPods.containerPort("ticdc", PORT))
        .withEnv(env)
        .withVolumeMounts(mounts)
        .withResources(MemberPods.resources(ticdc));
    return MemberPods.statefulSet(new MemberPods.Workload(tc, COMPONENT, ticdc, pod, main.build(),
        volumes, claims, MemberPods.prometheusAnnotations(PORT), plan));
  }

  /** The TiCDC image: {@code baseImage:version} (see {@link Images}). */
  public static String image(TidbCluster tc) {
    TicdcSpec ticdc = ticdc(tc);
    return Images.resolve(COMPONENT, ticdc.getBaseImage(), ticdc.getImage(), ticdc.getVersion(),
        tc.getSpec().getVersion());
  }

  static PodSettings settings(TidbCluster tc) {
    return PodSettings.resolve(tc.getSpec(), ticdc(tc));
  }

  private static ComponentConfig config(TidbCluster tc) {
    ComponentConfig c = ticdc(tc).getConfig();
    return c == null ? ComponentConfig.empty() : c;
  }

  private static TicdcSpec ticdc(TidbCluster tc) {
    TicdcSpec ticdc = tc.getSpec().getTicdc();
    if (ticdc == null) {
      throw new IllegalArgumentException(
          "spec.ticdc: Required value: the cluster has no TiCDC to build objects for");
    }
    return ticdc;
  }
}
