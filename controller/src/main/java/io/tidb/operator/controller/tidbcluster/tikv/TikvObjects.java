package io.tidb.operator.controller.tidbcluster.tikv;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.SecurityContextBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.cluster.TikvSpec;
import io.tidb.operator.controller.tidbcluster.member.AcrossK8sPd;
import io.tidb.operator.controller.tidbcluster.member.DnsWait;
import io.tidb.operator.controller.tidbcluster.member.StartScriptVersion;
import io.tidb.operator.controller.tidbcluster.member.ConfigMapNames;
import io.tidb.operator.controller.tidbcluster.member.Images;
import io.tidb.operator.controller.tidbcluster.member.LogTailers;
import io.tidb.operator.controller.tidbcluster.member.MemberPods;
import io.tidb.operator.controller.tidbcluster.member.Names;
import io.tidb.operator.controller.tidbcluster.member.PodSettings;
import io.tidb.operator.controller.tidbcluster.member.StatefulSetPlan;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterAddresses;
import io.tidb.operator.controller.tidbcluster.pipeline.PdOwner;
import io.tidb.operator.controller.tidbcluster.pipeline.Component;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The desired Kubernetes objects of a cluster's TiKV. Pure functions of a defaulted, valid
 * {@link TidbCluster} with {@code spec.tikv} set plus the inputs the operator decides; fresh objects
 * with only owned fields, ready for server-side apply.
 *
 * <ul>
 *   <li>{@link #peerService}: headless {@code <tc>-tikv-peer}, port 20160 named {@code peer},
 *       {@code publishNotReadyAddresses: true}. TiKV has no client Service.
 *   <li>{@link #configMap}: {@code config-file} (spec.tikv.config as TOML, TLS paths forced in with
 *       cluster TLS) and {@code startup-script} ({@link TikvStartScript}).
 *   <li>{@link #statefulSet}: {@code <tc>-tikv}, data PVC {@code tikv} at /var/lib/tikv, env
 *       {@code CAPACITY} from {@code limits.storage} ("0", i.e. the whole disk, when unset), optional
 *       RocksDB/Raft log tailers.
 * </ul>
 */
public final class TikvObjects {

  public static final Component COMPONENT = new Component("tikv");

  /** TiKV's server (gRPC) port. */
  public static final int SERVER_PORT = 20160;

  /** TiKV's status (HTTP metrics) port. */
  public static final int STATUS_PORT = 20180;
  static final String CONFIG_DIR = "/etc/tikv";
  static final String TLS_VOLUME = "tikv-tls";
  static final String TLS_DIR = "/var/lib/tikv-tls";
  static final String SCRIPT_FILE = "tikv_start_script.sh";
  private static final BigInteger GIB = BigInteger.ONE.shiftLeft(30);
  private static final BigInteger MIB = BigInteger.ONE.shiftLeft(20);

  private TikvObjects() {}

  public static Service peerService(TidbCluster tc) {
    return MemberPods.peerService(tc, TikvObjects.COMPONENT,
        List.of(MemberPods.servicePort("peer", TikvObjects.SERVER_PORT)));
  }

  public static TikvStartScript startScript(TidbCluster tc) {
    TikvSpec tikv = tikv(tc);
    return new TikvStartScript(
        tc.getMetadata().getName(), tc.getMetadata().getNamespace(), MemberPods.clusterDomain(tc),
        MemberPods.scheme(tc), PdOwner.of(tc).clientAddress(tc.getMetadata().getNamespace()),
        dataDir(tikv),
        Boolean.TRUE.equals(tc.getSpec().getEnableDynamicConfiguration()),
        Boolean.TRUE.equals(tc.getSpec().getPreferIPv6()),
        AcrossK8sPd.of(tc, ClusterAddresses.pdClient(tc.getMetadata().getName()), TLS_DIR),
        DnsWait.startTimeout(tc), StartScriptVersion.of(tc));
  }

  /** @param inUse the ConfigMap name the existing TiKV StatefulSet mounts, empty on creation */
  public static ConfigMap configMap(TidbCluster tc, Optional<String> inUse) {
    TikvSpec tikv = tikv(tc);
    Map<String, JsonNode> forced = new LinkedHashMap<>();
    if (MemberPods.tlsCluster(tc)) {
      forced.putAll(MemberPods.tlsPaths("security.ca-path", "security.cert-path", "security.key-path", TLS_DIR));
    }
    return MemberPods.configMap(tc, TikvObjects.COMPONENT, settings(tc),
        MemberPods.configToml(tikv.getConfig(), forced), startScript(tc).render(), inUse);
  }

  public static StatefulSet statefulSet(TidbCluster tc, ConfigMap configMap, StatefulSetPlan plan) {
    TikvSpec tikv = tikv(tc);
    String cluster = tc.getMetadata().getName();
    PodSettings pod = settings(tc);

    VolumeMount dataMount = MemberPods.mount(TikvObjects.COMPONENT.label(), TikvStartScript.DATA_MOUNT, false);
    List<VolumeMount> mounts = new ArrayList<>(List.of(
        MemberPods.mount(MemberPods.ANNOTATIONS_VOLUME, MemberPods.ANNOTATIONS_MOUNT, true),
        dataMount,
        MemberPods.mount(ConfigMapNames.CONFIG_VOLUME, CONFIG_DIR, true),
        MemberPods.mount(MemberPods.STARTUP_SCRIPT_VOLUME, MemberPods.STARTUP_SCRIPT_DIR, true)));
    List<Volume> volumes = new ArrayList<>();
    volumes.add(MemberPods.annotationsVolume());
    volumes.addAll(MemberPods.configVolumes(configMap.getMetadata().getName(), "tikv.toml", SCRIPT_FILE));
    if (MemberPods.tlsCluster(tc)) {
      mounts.add(MemberPods.mount(TLS_VOLUME, TLS_DIR, true));
      volumes.add(MemberPods.secretVolume(TLS_VOLUME, MemberPods.clusterTlsSecret(cluster, TikvObjects.COMPONENT)));
      if (Boolean.TRUE.equals(tikv.getMountClusterClientSecret())) {
        mounts.add(MemberPods.mount(MemberPods.CLUSTER_CLIENT_VOLUME, MemberPods.CLUSTER_CLIENT_MOUNT, true));
        volumes.add(MemberPods.secretVolume(MemberPods.CLUSTER_CLIENT_VOLUME, MemberPods.clusterClientSecret(cluster)));
      }
    }
    List<PersistentVolumeClaim> claims = new ArrayList<>();
    claims.add(MemberPods.claimTemplate(TikvObjects.COMPONENT.label(),
        MemberPods.storageRequest(tikv, "spec.tikv"), tikv.getStorageClassName(), tikv.getVolumeAttributesClassName()));
    List<VolumeMount> storageMounts = new ArrayList<>();
    MemberPods.storageVolumes(TikvObjects.COMPONENT, tikv.getStorageVolumes(), tikv.getStorageClassName(),
        tikv.getVolumeAttributesClassName(), claims, storageMounts);
    mounts.addAll(storageMounts);

    List<EnvVar> env = new ArrayList<>(List.of(
        MemberPods.fieldEnv("NAMESPACE", "metadata.namespace"),
        MemberPods.env("CLUSTER_NAME", cluster),
        MemberPods.env("HEADLESS_SERVICE_NAME", Names.peerService(cluster, TikvObjects.COMPONENT)),
        MemberPods.env("CAPACITY", capacity(tikv.getLimits() == null ? null : tikv.getLimits().get("storage"))),
        MemberPods.env("TZ", pod.timezone())));
    if (pod.hostNetwork()) {
      env.add(MemberPods.fieldEnv("POD_NAME", "metadata.name"));
    }

    ContainerBuilder main = new ContainerBuilder()
        .withName(TikvObjects.COMPONENT.label())
        .withImage(image(tc))
        .withImagePullPolicy(pod.imagePullPolicy())
        .withCommand("/bin/sh", MemberPods.STARTUP_SCRIPT_DIR + "/" + SCRIPT_FILE)
        .withPorts(MemberPods.containerPort("server", TikvObjects.SERVER_PORT))
        .withEnv(env)
        .withVolumeMounts(mounts)
        .withResources(MemberPods.resources(tikv));
    if (Boolean.TRUE.equals(tikv.getEnableNamedStatusPort())) {
      main.addToPorts(MemberPods.containerPort("status", TikvObjects.STATUS_PORT));
    }
    if (tikv.getSecurityContext() == null && tikv.getPrivileged() != null) {
      main.withSecurityContext(new SecurityContextBuilder().withPrivileged(tikv.getPrivileged()).build());
    }
    if (tikv.getReadinessProbe() != null) {
      main.withReadinessProbe(MemberPods.tcpReadiness(TikvObjects.SERVER_PORT, tikv.getReadinessProbe()));
    }
    Container container = main.build();

    StatefulSet set = MemberPods.statefulSet(new MemberPods.Workload(tc, TikvObjects.COMPONENT, tikv, pod, container,
        volumes, claims, MemberPods.prometheusAnnotations(TikvObjects.STATUS_PORT), plan));
    return withLogTailers(tc, tikv, set, dataMount, storageMounts);
  }

  /** The TiKV image: {@code baseImage:version} (see {@link Images}). */
  public static String image(TidbCluster tc) {
    TikvSpec tikv = tikv(tc);
    return Images.resolve(TikvObjects.COMPONENT, tikv.getBaseImage(), tikv.getImage(), tikv.getVersion(),
        tc.getSpec().getVersion());
  }

  /**
   * TiKV's {@code --capacity}: {@code <n>GB} when the size is a whole number of GiB, else
   * {@code <n>MB} (MiB, rounded down); "0" (use the whole disk) when there is no storage limit.
   */
  static String capacity(Quantity storageLimit) {
    if (storageLimit == null) {
      return "0";
    }
    BigInteger bytes = Quantity.getAmountInBytes(storageLimit).setScale(0, java.math.RoundingMode.DOWN)
        .toBigIntegerExact();
    if (bytes.mod(GIB).signum() == 0) {
      return bytes.divide(GIB) + "GB";
    }
    return bytes.divide(MIB) + "MB";
  }

  private static StatefulSet withLogTailers(
      TidbCluster tc, TikvSpec tikv, StatefulSet set, VolumeMount dataMount, List<VolumeMount> storageMounts) {
    List<Container> tailers = new ArrayList<>();
    if (Boolean.TRUE.equals(tikv.getSeparateRocksDBLog())) {
      VolumeMount m = logMount(tikv.getRocksDBLogVolumeName(), dataMount, storageMounts, tikv,
          "spec.tikv.rocksDBLogVolumeName");
      tailers.add(LogTailers.tailer(tc, "rocksdblog", tikv.getLogTailer(), m, m.getMountPath() + "/rocksdb.info"));
    }
    if (Boolean.TRUE.equals(tikv.getSeparateRaftLog())) {
      VolumeMount m = logMount(tikv.getRaftLogVolumeName(), dataMount, storageMounts, tikv,
          "spec.tikv.raftLogVolumeName");
      tailers.add(LogTailers.tailer(tc, "raftlog", tikv.getLogTailer(), m, m.getMountPath() + "/raftdb.info"));
    }
    if (tailers.isEmpty()) {
      return set;
    }
    PodSpec pod = set.getSpec().getTemplate().getSpec();
    if (LogTailers.asNativeSidecar(tikv.getLogTailer())) {
      List<Container> init = new ArrayList<>(tailers);
      init.addAll(pod.getInitContainers() == null ? List.of() : pod.getInitContainers());
      return MemberPods.withContainers(set, init, pod.getContainers());
    }
    List<Container> containers = new ArrayList<>(tailers);
    containers.addAll(pod.getContainers());
    return MemberPods.withContainers(set, pod.getInitContainers(), containers);
  }

  /** The mount a log lives on: the data volume, or the named storage volume / additional mount. */
  private static VolumeMount logMount(
      String volumeName, VolumeMount dataMount, List<VolumeMount> storageMounts, TikvSpec tikv, String field) {
    if (volumeName == null || volumeName.isEmpty()) {
      return dataMount;
    }
    for (VolumeMount m : storageMounts) {
      if (m.getName().equals(TikvObjects.COMPONENT.label() + "-" + volumeName)) {
        return m;
      }
    }
    if (tikv.getAdditionalVolumeMounts() != null) {
      for (VolumeMount m : tikv.getAdditionalVolumeMounts()) {
        if (m.getName().equals(volumeName)) {
          return m;
        }
      }
    }
    throw new IllegalArgumentException(field + ": Invalid value: \"" + volumeName
        + "\": no storageVolumes entry with a mountPath or additionalVolumeMounts entry has that name");
  }

  static PodSettings settings(TidbCluster tc) {
    return PodSettings.resolve(tc.getSpec(), tikv(tc));
  }

  static String dataDir(TikvSpec tikv) {
    String sub = tikv.getDataSubDir();
    return sub == null || sub.isEmpty() ? TikvStartScript.DATA_MOUNT : TikvStartScript.DATA_MOUNT + "/" + sub;
  }

  private static TikvSpec tikv(TidbCluster tc) {
    TikvSpec tikv = tc.getSpec().getTikv();
    if (tikv == null) {
      throw new IllegalArgumentException("spec.tikv: Required value: the cluster has no TiKV to build objects for");
    }
    return tikv;
  }
}
