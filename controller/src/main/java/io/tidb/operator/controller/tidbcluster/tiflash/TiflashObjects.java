package io.tidb.operator.controller.tidbcluster.tiflash;

import io.tidb.operator.controller.tidbcluster.pipeline.ClusterAddresses;
import io.tidb.operator.controller.tidbcluster.pipeline.PdOwner;
import io.tidb.operator.controller.tidbcluster.member.StartScriptFetch;
import io.tidb.operator.controller.tidbcluster.member.AcrossK8sPd;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.SecurityContextBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.tidb.operator.api.v1alpha1.cluster.InitContainerSpec;
import io.tidb.operator.api.v1alpha1.cluster.StorageClaim;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.cluster.TiflashSpec;
import io.tidb.operator.controller.tidbcluster.member.ConfigMapNames;
import io.tidb.operator.controller.tidbcluster.member.Images;
import io.tidb.operator.controller.tidbcluster.member.Labels;
import io.tidb.operator.controller.tidbcluster.member.StartScriptVersion;
import io.tidb.operator.controller.tidbcluster.member.LogTailers;
import io.tidb.operator.controller.tidbcluster.member.MemberPods;
import io.tidb.operator.controller.tidbcluster.member.Names;
import io.tidb.operator.controller.tidbcluster.member.OwnerRefs;
import io.tidb.operator.controller.tidbcluster.member.PodSettings;
import io.tidb.operator.controller.tidbcluster.member.StatefulSetPlan;
import io.tidb.operator.controller.tidbcluster.pipeline.Component;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The desired Kubernetes objects of a cluster's TiFlash, upstream's layout. Pure functions of a
 * defaulted, valid {@link TidbCluster} with {@code spec.tiflash} set.
 *
 * <ul>
 *   <li>{@link #peerService}: headless {@code <tc>-tiflash-peer} with ports tiflash 3930, proxy
 *       20170, metrics 8234 and proxy-metrics 20292, publishing not-ready addresses. TiFlash has
 *       no client Service.
 *   <li>{@link #configMap}: {@code config_templ.toml} and {@code proxy_templ.toml} ({@link
 *       TiflashConfigFiles}) and {@code startup-script} ({@link TiflashScripts#start}).
 *   <li>{@link #statefulSet}: {@code <tc>-tiflash}, one claim {@code data<i>} mounted at {@code
 *       /data<i>} per {@code storageClaims} item; an {@code init} container renders the config
 *       files into {@code /data0}; log tailers {@code serverlog}, {@code errorlog} and {@code
 *       clusterlog} follow TiFlash's three logs.
 * </ul>
 */
public final class TiflashObjects {

  public static final Component COMPONENT = new Component("tiflash");

  static final int FLASH_PORT = 3930;
  static final int PROXY_PORT = 20170;
  static final int METRICS_PORT = 8234;
  static final int PROXY_STATUS_PORT = 20292;
  static final int TCP_PORT = 9000;
  static final int HTTP_PORT = 8123;
  static final int INTERNAL_PORT = 9009;

  static final String CONFIG_DIR = "/etc/tiflash";

  /**
   * Annotation of {@code spec.tiflash.annotations}: {@code "true"} mounts the ConfigMap in the
   * TiFlash container, which starts with its addresses on the command line, without the {@code
   * init} container.
   */
  static final String MOUNT_CM_IN_CONTAINER = "tiflash.tidb.pingcap.com/mount-cm-in-tiflash-container";
  static final String TLS_VOLUME = "tiflash-tls";
  static final String TLS_DIR = "/var/lib/tiflash-tls";
  static final String CONFIG_TEMPLATE = "config_templ.toml";
  static final String PROXY_TEMPLATE = "proxy_templ.toml";
  static final String SCRIPT_KEY = "startup-script";
  static final String SCRIPT_FILE = "tiflash_start_script.sh";

  private TiflashObjects() {}

  public static Service peerService(TidbCluster tc) {
    return MemberPods.peerService(tc, COMPONENT, List.of(
        MemberPods.servicePort("tiflash", FLASH_PORT),
        MemberPods.servicePort("proxy", PROXY_PORT),
        MemberPods.servicePort("metrics", METRICS_PORT),
        MemberPods.servicePort("proxy-metrics", PROXY_STATUS_PORT)));
  }

  /** @param inUse the ConfigMap name the existing StatefulSet mounts, empty on creation */
  public static ConfigMap configMap(TidbCluster tc, Optional<String> inUse) {
    TiflashConfigFiles files = TiflashConfigFiles.of(tc);
    Map<String, String> data = new TreeMap<>();
    data.put(CONFIG_TEMPLATE, files.config());
    data.put(PROXY_TEMPLATE, files.proxy());
    data.put(SCRIPT_KEY, startScript(tc));
    String name = ConfigMapNames.name(tc.getMetadata().getName(), COMPONENT,
        settings(tc).configRollingUpdate(), data, inUse);
    return new ConfigMapBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace(tc.getMetadata().getNamespace())
        .withLabels(Labels.component(Labels.instanceOf(tc), COMPONENT))
        .withOwnerReferences(OwnerRefs.of(tc))
        .endMetadata()
        .withData(data)
        .build();
  }

  /** Whether {@value #MOUNT_CM_IN_CONTAINER} is {@code "true"} on {@code spec.tiflash}. */
  static boolean mountsConfigInContainer(TidbCluster tc) {
    Map<String, String> annotations = tiflash(tc).getAnnotations();
    return annotations != null && "true".equals(annotations.get(MOUNT_CM_IN_CONTAINER));
  }

  static String startScript(TidbCluster tc) {
    StartScriptVersion version = StartScriptVersion.of(tc);
    if (!mountsConfigInContainer(tc)) {
      return TiflashScripts.start(version);
    }
    String domain = MemberPods.clusterDomain(tc);
    String podHost = "${POD_NAME}.${HEADLESS_SERVICE_NAME}.${NAMESPACE}.svc"
        + (domain == null || domain.isEmpty() ? "" : "." + domain);
    PdOwner owner = PdOwner.of(tc);
    return TiflashScripts.startWithArgs(version, podHost, owner.name(), owner.referenced(),
        MemberPods.scheme(tc), Boolean.TRUE.equals(tc.getSpec().getEnableDynamicConfiguration()),
        AcrossK8sPd.of(tc, ClusterAddresses.pdClient(tc.getMetadata().getName()), TLS_DIR));
  }

  public static StatefulSet statefulSet(TidbCluster tc, ConfigMap configMap, StatefulSetPlan plan) {
    TiflashSpec tiflash = tiflash(tc);
    String cluster = tc.getMetadata().getName();
    PodSettings pod = settings(tc);
    String cm = configMap.getMetadata().getName();

    List<PersistentVolumeClaim> claims = new ArrayList<>();
    List<VolumeMount> mounts = new ArrayList<>();
    mounts.add(MemberPods.mount(MemberPods.ANNOTATIONS_VOLUME, MemberPods.ANNOTATIONS_MOUNT, true));
    List<StorageClaim> storage = tiflash.getStorageClaims() == null ? List.of() : tiflash.getStorageClaims();
    if (storage.isEmpty()) {
      throw new IllegalArgumentException(
          "spec.tiflash.storageClaims: Required value: TiFlash needs at least one storage claim");
    }
    for (int i = 0; i < storage.size(); i++) {
      StorageClaim claim = storage.get(i);
      Quantity size = claim.getResources() == null || claim.getResources().getRequests() == null
          ? null : claim.getResources().getRequests().get("storage");
      if (size == null) {
        throw new IllegalArgumentException("spec.tiflash.storageClaims[" + i
            + "].resources.requests.storage: Required value: each TiFlash volume needs a size, e.g. 100Gi");
      }
      claims.add(MemberPods.claimTemplate(dataVolume(i), size, claim.getStorageClassName(),
          claim.getVolumeAttributesClassName()));
      mounts.add(MemberPods.mount(dataVolume(i), "/" + dataVolume(i), false));
    }
    mounts.add(MemberPods.mount(MemberPods.STARTUP_SCRIPT_VOLUME, MemberPods.STARTUP_SCRIPT_DIR, true));
    if (mountsConfigInContainer(tc)) {
      mounts.add(MemberPods.mount(ConfigMapNames.CONFIG_VOLUME, CONFIG_DIR, true));
    }

    List<Volume> volumes = new ArrayList<>();
    volumes.add(MemberPods.annotationsVolume());
    volumes.add(new VolumeBuilder()
        .withName(ConfigMapNames.CONFIG_VOLUME)
        .withNewConfigMap()
        .withName(cm)
        .addNewItem().withKey(CONFIG_TEMPLATE).withPath(CONFIG_TEMPLATE).endItem()
        .addNewItem().withKey(PROXY_TEMPLATE).withPath(PROXY_TEMPLATE).endItem()
        .endConfigMap()
        .build());
    volumes.add(MemberPods.configMapVolume(MemberPods.STARTUP_SCRIPT_VOLUME, cm, SCRIPT_KEY, SCRIPT_FILE));
    if (MemberPods.tlsCluster(tc)) {
      mounts.add(MemberPods.mount(TLS_VOLUME, TLS_DIR, true));
      volumes.add(MemberPods.secretVolume(TLS_VOLUME, MemberPods.clusterTlsSecret(cluster, COMPONENT)));
    }

    List<EnvVar> env = new ArrayList<>(List.of(
        MemberPods.fieldEnv("NAMESPACE", "metadata.namespace"),
        MemberPods.env("CLUSTER_NAME", cluster),
        MemberPods.env("HEADLESS_SERVICE_NAME", Names.peerService(cluster, COMPONENT)),
        MemberPods.env("TZ", pod.timezone())));
    if (pod.hostNetwork()) {
      env.add(MemberPods.fieldEnv("POD_NAME", "metadata.name"));
    }
    ContainerBuilder main = new ContainerBuilder()
        .withName(COMPONENT.label())
        .withImage(image(tc))
        .withImagePullPolicy(pod.imagePullPolicy())
        .withCommand("/bin/sh", MemberPods.STARTUP_SCRIPT_DIR + "/" + SCRIPT_FILE)
        .withPorts(
            MemberPods.containerPort("tiflash", FLASH_PORT),
            MemberPods.containerPort("proxy", PROXY_PORT),
            MemberPods.containerPort("tcp", TCP_PORT),
            MemberPods.containerPort("http", HTTP_PORT),
            MemberPods.containerPort("internal", INTERNAL_PORT),
            MemberPods.containerPort("metrics", METRICS_PORT))
        .withEnv(env)
        .withVolumeMounts(mounts)
        .withResources(MemberPods.resources(tiflash));
    if (tiflash.getSecurityContext() == null && tiflash.getPrivileged() != null) {
      main.withSecurityContext(new SecurityContextBuilder().withPrivileged(tiflash.getPrivileged()).build());
    }

    Map<String, String> annotations = new LinkedHashMap<>(MemberPods.prometheusAnnotations(METRICS_PORT));
    annotations.put("tiflash.proxy.prometheus.io/scrape", "true");
    annotations.put("tiflash.proxy.prometheus.io/path", "/metrics");
    annotations.put("tiflash.proxy.prometheus.io/port", Integer.toString(PROXY_STATUS_PORT));

    StatefulSet set = MemberPods.statefulSet(new MemberPods.Workload(tc, COMPONENT, tiflash, pod,
        main.build(), volumes, claims, annotations, plan));
    return withInitAndTailers(tc, tiflash, set);
  }

  /**
   * The {@code init} container first (not in the {@value #MOUNT_CM_IN_CONTAINER} mode), then the
   * log tailers (as sidecars or native sidecars).
   */
  private static StatefulSet withInitAndTailers(TidbCluster tc, TiflashSpec tiflash, StatefulSet set) {
    InitContainerSpec initSpec = tiflash.getInitializer();
    ContainerBuilder init = new ContainerBuilder()
        .withName("init")
        .withImage(LogTailers.helperImage(tc))
        .withImagePullPolicy(LogTailers.helperPullPolicy(tc))
        .withCommand("sh", "-c", TiflashScripts.init(StartScriptVersion.of(tc),
            AcrossK8sPd.of(tc, ClusterAddresses.pdClient(tc.getMetadata().getName()), TLS_DIR)))
        .withEnv(MemberPods.fieldEnv("POD_NAME", "metadata.name"))
        .withVolumeMounts(
            MemberPods.mount(dataVolume(0), "/" + dataVolume(0), false),
            MemberPods.mount(ConfigMapNames.CONFIG_VOLUME, CONFIG_DIR, true));
    if (Boolean.TRUE.equals(tc.getSpec().getAcrossK8s()) && StartScriptFetch.mtls(tc)) {
      // Discovery's mutual TLS: the init container presents TiFlash's cluster certificate.
      init.addToVolumeMounts(MemberPods.mount(TLS_VOLUME, TLS_DIR, true));
    }
    if (initSpec != null) {
      init.withResources(MemberPods.resources(initSpec)).withSecurityContext(initSpec.getSecurityContext());
    }
    List<Container> tailers = List.of(
        tailer(tc, tiflash, "serverlog", TiflashConfigFiles.logFile(tc, "logger.log", TiflashConfigFiles.SERVER_LOG)),
        tailer(tc, tiflash, "errorlog", TiflashConfigFiles.logFile(tc, "logger.errorlog", TiflashConfigFiles.ERROR_LOG)),
        tailer(tc, tiflash, "clusterlog",
            TiflashConfigFiles.logFile(tc, "flash.flash_cluster.log", TiflashConfigFiles.CLUSTER_LOG)));

    var podSpec = set.getSpec().getTemplate().getSpec();
    List<Container> initContainers = new ArrayList<>();
    if (!mountsConfigInContainer(tc)) {
      initContainers.add(init.build());
    }
    List<Container> containers = new ArrayList<>(podSpec.getContainers());
    if (LogTailers.asNativeSidecar(tiflash.getLogTailer())) {
      initContainers.addAll(tailers);
    } else {
      containers.addAll(tailers);
    }
    if (podSpec.getInitContainers() != null) {
      initContainers.addAll(podSpec.getInitContainers());
    }
    return MemberPods.withContainers(set, initContainers, containers);
  }

  /**
   * A tailer of {@code file}; like upstream, it mounts the volume named by the path's first
   * segment ({@code /data0/logs/server.log} → {@code data0} at {@code /data0}).
   */
  private static Container tailer(TidbCluster tc, TiflashSpec tiflash, String name, String file) {
    String[] parts = file.split("/");
    String volume = parts.length >= 3 ? parts[1] : dataVolume(0);
    return LogTailers.tailer(tc, name, tiflash.getLogTailer(),
        MemberPods.mount(volume, "/" + volume, false), file);
  }

  /** {@code data<i>}: the claim template and mount of {@code storageClaims[i]}. */
  static String dataVolume(int i) {
    return "data" + i;
  }

  /** The TiFlash image: {@code baseImage:version} (see {@link Images}). */
  public static String image(TidbCluster tc) {
    TiflashSpec tiflash = tiflash(tc);
    return Images.resolve(COMPONENT, tiflash.getBaseImage(), tiflash.getImage(), tiflash.getVersion(),
        tc.getSpec().getVersion());
  }

  /** The version TiFlash runs: its own, else the cluster's; may be null. */
  static String version(TidbCluster tc) {
    TiflashSpec tiflash = tiflash(tc);
    return tiflash.getVersion() != null && !tiflash.getVersion().isEmpty()
        ? tiflash.getVersion() : tc.getSpec().getVersion();
  }

  static PodSettings settings(TidbCluster tc) {
    return PodSettings.resolve(tc.getSpec(), tiflash(tc));
  }

  private static TiflashSpec tiflash(TidbCluster tc) {
    TiflashSpec tiflash = tc.getSpec().getTiflash();
    if (tiflash == null) {
      throw new IllegalArgumentException(
          "spec.tiflash: Required value: the cluster has no TiFlash to build objects for");
    }
    return tiflash;
  }
}
