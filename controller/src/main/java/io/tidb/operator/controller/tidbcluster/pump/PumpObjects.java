package io.tidb.operator.controller.tidbcluster.pump;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.tidb.operator.api.v1alpha1.cluster.ComponentConfig;
import io.tidb.operator.api.v1alpha1.cluster.PumpSpec;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.controller.tidbcluster.member.AcrossK8sPd;
import io.tidb.operator.controller.tidbcluster.member.ConfigMapNames;
import io.tidb.operator.controller.tidbcluster.member.Images;
import io.tidb.operator.controller.tidbcluster.member.Labels;
import io.tidb.operator.controller.tidbcluster.member.MemberPods;
import io.tidb.operator.controller.tidbcluster.member.Names;
import io.tidb.operator.controller.tidbcluster.member.OwnerRefs;
import io.tidb.operator.controller.tidbcluster.member.PodSettings;
import io.tidb.operator.controller.tidbcluster.member.StartScriptVersion;
import io.tidb.operator.controller.tidbcluster.member.StatefulSetPlan;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterAddresses;
import io.tidb.operator.controller.tidbcluster.pipeline.Component;
import io.tidb.operator.controller.tidbcluster.pipeline.PdOwner;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The desired Kubernetes objects of a cluster's Pump, upstream's layout: headless Service {@code
 * <tc>-pump} (port 8250 {@code pump}, publishing not-ready addresses), which is also the
 * StatefulSet's service (Pump has no peer Service); ConfigMap with {@code spec.pump.config} as
 * TOML ({@code security.ssl-*} forced with cluster TLS) and the start script ({@link
 * PumpStartScript}); StatefulSet {@code <tc>-pump} with claim {@code data} ({@code
 * spec.pump.requests.storage}) at {@code /data} and a TCP readiness probe on 8250.
 */
public final class PumpObjects {

  public static final Component COMPONENT = new Component("pump");

  static final int PORT = 8250;
  static final String CONFIG_DIR = "/etc/pump";
  static final String CONFIG_FILE = CONFIG_DIR + "/pump.toml";
  static final String DATA_DIR = "/data";
  static final String DATA_VOLUME = "data";
  static final String SCRIPT_FILE = "pump_start_script.sh";
  static final String TLS_VOLUME = "pump-tls";
  static final String TLS_DIR = "/var/lib/pump-tls";

  private PumpObjects() {}

  /** {@code <tc>-pump}: the headless Service the pumps advertise themselves under. */
  public static String serviceName(String cluster) {
    return Names.member(cluster, COMPONENT);
  }

  public static Service headlessService(TidbCluster tc) {
    String instance = Labels.instanceOf(tc);
    return MemberPods.dualStackIfPreferred(tc, new ServiceBuilder()
        .withNewMetadata()
        .withName(serviceName(tc.getMetadata().getName()))
        .withNamespace(tc.getMetadata().getNamespace())
        .withLabels(Labels.peerService(instance, COMPONENT))
        .withOwnerReferences(OwnerRefs.of(tc))
        .endMetadata()
        .withNewSpec()
        .withClusterIP("None")
        .withPorts(MemberPods.servicePort("pump", PORT))
        .withSelector(Labels.component(instance, COMPONENT))
        .withPublishNotReadyAddresses(true)
        .endSpec()
        .build());
  }

  /**
   * The address a pump of this cluster advertises, {@code <pod>.<tc>-pump[.<ns>.svc.<domain>]},
   * with {@code pod} for the pod (upstream adds the namespace only with a cluster domain).
   */
  static String advertiseHost(TidbCluster tc, String pod) {
    String domain = MemberPods.clusterDomain(tc);
    String zone = domain.isEmpty() ? "" : "." + tc.getMetadata().getNamespace() + ".svc." + domain;
    return pod + "." + serviceName(tc.getMetadata().getName()) + zone;
  }

  static PumpStartScript startScript(TidbCluster tc) {
    return new PumpStartScript(
        MemberPods.scheme(tc) + "://" + PdOwner.of(tc).clientAddress(tc.getMetadata().getNamespace()),
        config(tc).get("log-level").filter(JsonNode::isTextual).map(JsonNode::asText)
            .orElse("info"),
        advertiseHost(tc, "${POD_NAME}"), versionedAdvertiseHost(tc),
        AcrossK8sPd.withScheme(tc, MemberPods.scheme(tc) + "://"
            + ClusterAddresses.pdClient(tc.getMetadata().getName()), TLS_DIR),
        StartScriptVersion.of(tc));
  }

  /**
   * The host upstream's v1 and v2 scripts advertise: {@code ${HOSTNAME}.<tc>-pump}, then {@code
   * .<ns>.svc.<domain>} with a cluster domain, or {@code .<ns>.svc} across Kubernetes clusters.
   */
  private static String versionedAdvertiseHost(TidbCluster tc) {
    String domain = MemberPods.clusterDomain(tc);
    String ns = tc.getMetadata().getNamespace();
    String zone = !domain.isEmpty() ? "." + ns + ".svc." + domain
        : Boolean.TRUE.equals(tc.getSpec().getAcrossK8s()) ? "." + ns + ".svc" : "";
    return "${HOSTNAME}." + serviceName(tc.getMetadata().getName()) + zone;
  }

  /** @param inUse the ConfigMap name the existing StatefulSet mounts, empty on creation */
  public static ConfigMap configMap(TidbCluster tc, Optional<String> inUse) {
    Map<String, JsonNode> forced = MemberPods.tlsCluster(tc)
        ? MemberPods.tlsPaths("security.ssl-ca", "security.ssl-cert", "security.ssl-key", TLS_DIR)
        : Map.of();
    return MemberPods.configMap(tc, COMPONENT, settings(tc),
        MemberPods.configToml(pump(tc).getConfig(), forced), startScript(tc).render(), inUse);
  }

  public static StatefulSet statefulSet(TidbCluster tc, ConfigMap configMap, StatefulSetPlan plan) {
    PumpSpec pump = pump(tc);
    String cluster = tc.getMetadata().getName();
    PodSettings pod = settings(tc);
    List<VolumeMount> mounts = new ArrayList<>(List.of(
        MemberPods.mount(MemberPods.ANNOTATIONS_VOLUME, MemberPods.ANNOTATIONS_MOUNT, true),
        MemberPods.mount(DATA_VOLUME, DATA_DIR, false),
        MemberPods.mount(ConfigMapNames.CONFIG_VOLUME, CONFIG_DIR, true),
        MemberPods.mount(MemberPods.STARTUP_SCRIPT_VOLUME, MemberPods.STARTUP_SCRIPT_DIR, true)));
    List<Volume> volumes = new ArrayList<>();
    volumes.add(MemberPods.annotationsVolume());
    volumes.addAll(MemberPods.configVolumes(configMap.getMetadata().getName(), "pump.toml",
        SCRIPT_FILE));
    if (MemberPods.tlsCluster(tc)) {
      mounts.add(MemberPods.mount(TLS_VOLUME, TLS_DIR, true));
      volumes.add(MemberPods.secretVolume(TLS_VOLUME,
          MemberPods.clusterTlsSecret(cluster, COMPONENT)));
    }
    List<EnvVar> env = new ArrayList<>(List.of(
        MemberPods.fieldEnv("POD_NAME", "metadata.name"),
        MemberPods.fieldEnv("HOSTNAME", "metadata.name")));
    if (Boolean.TRUE.equals(pump.getSetTimeZone())) {
      env.add(MemberPods.env("TZ", pod.timezone()));
    }
    ContainerBuilder main = new ContainerBuilder()
        .withName(COMPONENT.label())
        .withImage(image(tc))
        .withImagePullPolicy(pod.imagePullPolicy())
        .withCommand("/bin/sh", MemberPods.STARTUP_SCRIPT_DIR + "/" + SCRIPT_FILE)
        .withPorts(MemberPods.containerPort("pump", PORT))
        .withEnv(env)
        .withVolumeMounts(mounts)
        .withReadinessProbe(MemberPods.tcpReadiness(PORT, pump.getReadinessProbe()))
        .withResources(MemberPods.resources(pump));
    StatefulSet sts = MemberPods.statefulSet(new MemberPods.Workload(tc, COMPONENT, pump, pod,
        main.build(), volumes,
        List.of(MemberPods.claimTemplate(DATA_VOLUME,
            MemberPods.storageRequest(pump, "spec.pump"), pump.getStorageClassName(),
            pump.getVolumeAttributesClassName())),
        MemberPods.prometheusAnnotations(PORT), plan));
    sts.getSpec().setServiceName(serviceName(cluster)); // the StatefulSet just built: no copy
    return sts;
  }

  /** The Pump image: {@code baseImage:version} (see {@link Images}). */
  public static String image(TidbCluster tc) {
    PumpSpec pump = pump(tc);
    return Images.resolve(COMPONENT, pump.getBaseImage(), pump.getImage(), pump.getVersion(),
        tc.getSpec().getVersion());
  }

  static PodSettings settings(TidbCluster tc) {
    return PodSettings.resolve(tc.getSpec(), pump(tc));
  }

  private static ComponentConfig config(TidbCluster tc) {
    ComponentConfig c = pump(tc).getConfig();
    return c == null ? ComponentConfig.empty() : c;
  }

  private static PumpSpec pump(TidbCluster tc) {
    PumpSpec pump = tc.getSpec().getPump();
    if (pump == null) {
      throw new IllegalArgumentException(
          "spec.pump: Required value: the cluster has no Pump to build objects for");
    }
    return pump;
  }
}
