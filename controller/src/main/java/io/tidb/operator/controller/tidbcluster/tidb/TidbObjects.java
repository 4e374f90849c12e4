package io.tidb.operator.controller.tidbcluster.tidb;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.ProbeBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.ServicePortBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.tidb.operator.api.v1alpha1.cluster.CustomizedStartupProbe;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.cluster.TidbServiceSpec;
import io.tidb.operator.api.v1alpha1.cluster.TidbSpec;
import io.tidb.operator.controller.tidbcluster.member.AcrossK8sPd;
import io.tidb.operator.controller.tidbcluster.member.StartScriptVersion;
import io.tidb.operator.controller.tidbcluster.member.ConfigMapNames;
import io.tidb.operator.controller.tidbcluster.member.Images;
import io.tidb.operator.controller.tidbcluster.member.Labels;
import io.tidb.operator.controller.tidbcluster.member.LogTailers;
import io.tidb.operator.controller.tidbcluster.member.MemberPods;
import io.tidb.operator.controller.tidbcluster.member.Names;
import io.tidb.operator.controller.tidbcluster.member.OwnerRefs;
import io.tidb.operator.controller.tidbcluster.member.PodSettings;
import io.tidb.operator.controller.tidbcluster.member.StatefulSetPlan;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterAddresses;
import io.tidb.operator.controller.tidbcluster.pipeline.PdOwner;
import io.tidb.operator.controller.tidbcluster.pipeline.Component;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The desired Kubernetes objects of a cluster's TiDB. Pure functions of a defaulted, valid
 * {@link TidbCluster} with {@code spec.tidb} set plus the inputs the operator decides; fresh objects
 * with only owned fields, ready for server-side apply.
 *
 * <ul>
 *   <li>{@link #clientService}: {@code <tc>-tidb}, only when {@code spec.tidb.service} is set (as
 *       upstream): the MySQL port ({@code service.port}, default 4000, name {@code service.portName},
 *       default {@code mysql-client}, target 4000, {@code mysqlNodePort}), {@code additionalPorts}, and
 *       10080 {@code status} unless {@code exposeStatus: false}; type, annotations, labels, clusterIP,
 *       externalTrafficPolicy and, for LoadBalancer, loadBalancerIP/SourceRanges/Class.
 *   <li>{@link #peerService}: headless {@code <tc>-tidb-peer}, port 10080 named {@code status},
 *       {@code publishNotReadyAddresses: true}.
 *   <li>{@link #configMap}: {@code config-file} (spec.tidb.config as TOML, with cluster TLS, client
 *       TLS, token auth and bootstrap SQL paths forced in when enabled) and {@code startup-script}
 *       ({@link TidbStartScript}).
 *   <li>{@link #statefulSet}: {@code <tc>-tidb}; a readiness probe always (TCP 4000, or
 *       {@code curl /status} with {@code readinessProbe.type: command}); a {@code slowlog} tailer
 *       unless {@code separateSlowLog: false}.
 * </ul>
 */
public final class TidbObjects {

  public static final Component COMPONENT = new Component("tidb");

  /** TiDB's MySQL protocol port. */
  public static final int SERVER_PORT = 4000;

  /** TiDB's status (HTTP) port. */
  public static final int STATUS_PORT = 10080;
  static final String CONFIG_DIR = "/etc/tidb";
  static final String TLS_VOLUME = "tidb-tls";
  static final String TLS_DIR = "/var/lib/tidb-tls";
  static final String SERVER_TLS_VOLUME = "tidb-server-tls";
  static final String SERVER_TLS_DIR = "/var/lib/tidb-server-tls";
  static final String AUTH_TOKEN_VOLUME = "tidb-auth-token";
  static final String AUTH_TOKEN_DIR = "/var/lib/tidb-auth-token";
  static final String BOOTSTRAP_SQL_VOLUME = "tidb-bootstrap-sql";
  static final String BOOTSTRAP_SQL_DIR = "/etc/tidb-bootstrap";
  static final String SLOW_LOG_VOLUME = "slowlog";
  static final String SLOW_LOG_DIR = "/var/log/tidb";
  static final String SLOW_LOG_FILE = SLOW_LOG_DIR + "/slowlog";
  static final String STARTUP_PROBE_DIR = "/var/lib/customized-startup-probe";
  static final String SCRIPT_FILE = "tidb_start_script.sh";
  static final String DEFAULT_PORT_NAME = "mysql-client";

  private TidbObjects() {}

  /** The MySQL client Service, or empty when {@code spec.tidb.service} is not set. */
  public static Optional<Service> clientService(TidbCluster tc) {
    TidbServiceSpec svc = tidb(tc).getService();
    if (svc == null) {
      return Optional.empty();
    }
    String instance = Labels.instanceOf(tc);
    SortedMap<String, String> labels = new TreeMap<>();
    if (svc.getLabels() != null) {
      labels.putAll(svc.getLabels());
    }
    labels.putAll(Labels.clientService(instance, TidbObjects.COMPONENT));
    String type = svc.getType() == null || svc.getType().isEmpty() ? "ClusterIP" : svc.getType();

    List<ServicePort> ports = new ArrayList<>();
    ports.add(port(svc.getPortName() == null ? DEFAULT_PORT_NAME : svc.getPortName(),
        svc.getPort() == null ? TidbObjects.SERVER_PORT : svc.getPort(), TidbObjects.SERVER_PORT,
        svc.getMysqlNodePort()));
    if (svc.getAdditionalPorts() != null) {
      ports.addAll(svc.getAdditionalPorts());
    }
    if (!Boolean.FALSE.equals(svc.getExposeStatus())) {
      ports.add(port("status", TidbObjects.STATUS_PORT, TidbObjects.STATUS_PORT, svc.getStatusNodePort()));
    }
    boolean lb = "LoadBalancer".equals(type);
    return Optional.of(MemberPods.dualStackIfPreferred(tc, new ServiceBuilder()
        .withNewMetadata()
        .withName(Names.member(tc.getMetadata().getName(), TidbObjects.COMPONENT))
        .withNamespace(tc.getMetadata().getNamespace())
        .withLabels(labels)
        .withAnnotations(svc.getAnnotations() == null ? null : new TreeMap<>(svc.getAnnotations()))
        .withOwnerReferences(OwnerRefs.of(tc))
        .endMetadata()
        .withNewSpec()
        .withType(type)
        .withPorts(ports)
        .withSelector(Labels.component(instance, TidbObjects.COMPONENT))
        .withClusterIP(MemberPods.emptyToNull(svc.getClusterIP()))
        .withExternalTrafficPolicy(MemberPods.emptyToNull(svc.getExternalTrafficPolicy()))
        .withLoadBalancerIP(lb ? MemberPods.emptyToNull(svc.getLoadBalancerIP()) : null)
        .withLoadBalancerSourceRanges(lb ? svc.getLoadBalancerSourceRanges() : null)
        .withLoadBalancerClass(lb ? MemberPods.emptyToNull(svc.getLoadBalancerClass()) : null)
        .endSpec()
        .build()));
  }

  public static Service peerService(TidbCluster tc) {
    return MemberPods.peerService(tc, TidbObjects.COMPONENT,
        List.of(MemberPods.servicePort("status", TidbObjects.STATUS_PORT)));
  }

  public static TidbStartScript startScript(TidbCluster tc) {
    TidbSpec tidb = tidb(tc);
    return new TidbStartScript(
        tc.getMetadata().getName(), tc.getMetadata().getNamespace(), MemberPods.clusterDomain(tc),
        PdOwner.of(tc).clientAddress(tc.getMetadata().getNamespace()),
        binlogEnabled(tc), tidb.getPlugins(), tidb.getArguments(),
        AcrossK8sPd.of(tc, ClusterAddresses.pdClient(tc.getMetadata().getName()), TLS_DIR),
        StartScriptVersion.of(tc));
  }

  /** @param inUse the ConfigMap name the existing TiDB StatefulSet mounts, empty on creation */
  public static ConfigMap configMap(TidbCluster tc, Optional<String> inUse) {
    TidbSpec tidb = tidb(tc);
    Map<String, JsonNode> forced = new LinkedHashMap<>();
    if (Boolean.TRUE.equals(tidb.getTokenBasedAuthEnabled())) {
      forced.put("security.auth-token-jwks", TextNode.valueOf(AUTH_TOKEN_DIR + "/tidb_auth_token_jwks.json"));
    }
    if (MemberPods.tlsCluster(tc)) {
      forced.putAll(MemberPods.tlsPaths(
          "security.cluster-ssl-ca", "security.cluster-ssl-cert", "security.cluster-ssl-key", TLS_DIR));
    }
    if (tlsClient(tidb)) {
      forced.putAll(MemberPods.tlsPaths("security.ssl-ca", "security.ssl-cert", "security.ssl-key", SERVER_TLS_DIR));
      if (Boolean.TRUE.equals(tidb.getTlsClient().getDisableClientAuthn())) {
        forced.remove("security.ssl-ca");
      }
    }
    if (bootstrapSql(tidb)) {
      forced.put("initialize-sql-file", TextNode.valueOf(BOOTSTRAP_SQL_DIR + "/bootstrap.sql"));
    }
    return MemberPods.configMap(tc, TidbObjects.COMPONENT, settings(tc),
        MemberPods.configToml(tidb.getConfig(), forced), startScript(tc).render(), inUse);
  }

  public static StatefulSet statefulSet(TidbCluster tc, ConfigMap configMap, StatefulSetPlan plan) {
    TidbSpec tidb = tidb(tc);
    String cluster = tc.getMetadata().getName();
    PodSettings pod = settings(tc);

    List<VolumeMount> mounts = new ArrayList<>(List.of(
        MemberPods.mount(MemberPods.ANNOTATIONS_VOLUME, MemberPods.ANNOTATIONS_MOUNT, true),
        MemberPods.mount(ConfigMapNames.CONFIG_VOLUME, CONFIG_DIR, true),
        MemberPods.mount(MemberPods.STARTUP_SCRIPT_VOLUME, MemberPods.STARTUP_SCRIPT_DIR, true)));
    List<Volume> volumes = new ArrayList<>();
    volumes.add(MemberPods.annotationsVolume());
    volumes.addAll(MemberPods.configVolumes(configMap.getMetadata().getName(), "tidb.toml", SCRIPT_FILE));
    if (Boolean.TRUE.equals(tidb.getTokenBasedAuthEnabled())) {
      mounts.add(MemberPods.mount(AUTH_TOKEN_VOLUME, AUTH_TOKEN_DIR, true));
      volumes.add(MemberPods.secretVolume(AUTH_TOKEN_VOLUME, cluster + "-tidb-auth-token-jwks-secret"));
    }
    if (bootstrapSql(tidb)) {
      mounts.add(MemberPods.mount(BOOTSTRAP_SQL_VOLUME, BOOTSTRAP_SQL_DIR, true));
      volumes.add(MemberPods.configMapVolume(BOOTSTRAP_SQL_VOLUME, tidb.getBootstrapSQLConfigMapName(),
          "bootstrap-sql", "bootstrap.sql"));
    }
    if (MemberPods.tlsCluster(tc)) {
      mounts.add(MemberPods.mount(TLS_VOLUME, TLS_DIR, true));
      volumes.add(MemberPods.secretVolume(TLS_VOLUME, MemberPods.clusterTlsSecret(cluster, TidbObjects.COMPONENT)));
    }
    if (tlsClient(tidb)) {
      mounts.add(MemberPods.mount(SERVER_TLS_VOLUME, SERVER_TLS_DIR, true));
      volumes.add(MemberPods.secretVolume(
          SERVER_TLS_VOLUME, Names.member(cluster, COMPONENT) + "-server-secret"));
    }
    List<PersistentVolumeClaim> claims = new ArrayList<>();
    List<VolumeMount> storageMounts = new ArrayList<>();
    MemberPods.storageVolumes(TidbObjects.COMPONENT, tidb.getStorageVolumes(), tidb.getStorageClassName(),
        tidb.getVolumeAttributesClassName(), claims, storageMounts);
    mounts.addAll(storageMounts);

    Container slowLogTailer = null;
    String slowLogFile = "";
    if (!Boolean.FALSE.equals(tidb.getSeparateSlowLog())) {
      VolumeMount slowMount;
      String volumeName = tidb.getSlowLogVolumeName();
      if (volumeName == null || volumeName.isEmpty()) {
        volumes.add(new VolumeBuilder().withName(SLOW_LOG_VOLUME).withNewEmptyDir().endEmptyDir().build());
        slowMount = MemberPods.mount(SLOW_LOG_VOLUME, SLOW_LOG_DIR, false);
        mounts.add(slowMount);
        slowLogFile = SLOW_LOG_FILE;
      } else {
        slowMount = slowLogMount(tidb, volumeName, storageMounts);
        slowLogFile = slowMount.getMountPath() + "/" + volumeName;
      }
      slowLogTailer = LogTailers.tailer(tc, SLOW_LOG_VOLUME, tidb.getSlowLogTailer(), slowMount, slowLogFile);
    }

    List<EnvVar> env = List.of(
        MemberPods.env("CLUSTER_NAME", cluster),
        MemberPods.env("TZ", pod.timezone()),
        MemberPods.env("BINLOG_ENABLED", Boolean.toString(binlogEnabled(tc))),
        MemberPods.env("SLOW_LOG_FILE", slowLogFile),
        MemberPods.fieldEnv("POD_NAME", "metadata.name"),
        MemberPods.fieldEnv("NAMESPACE", "metadata.namespace"),
        MemberPods.env("HEADLESS_SERVICE_NAME", Names.peerService(cluster, TidbObjects.COMPONENT)));

    ContainerBuilder main = new ContainerBuilder()
        .withName(TidbObjects.COMPONENT.label())
        .withImage(image(tc))
        .withImagePullPolicy(pod.imagePullPolicy())
        .withCommand("/bin/sh", MemberPods.STARTUP_SCRIPT_DIR + "/" + SCRIPT_FILE)
        .withPorts(
            MemberPods.containerPort("server", TidbObjects.SERVER_PORT),
            MemberPods.containerPort("status", TidbObjects.STATUS_PORT))
        .withEnv(env)
        .withVolumeMounts(mounts)
        .withResources(MemberPods.resources(tidb))
        .withReadinessProbe(readinessProbe(tc, tidb))
        .withLifecycle(tidb.getLifecycle());

    List<Container> extraInit = new ArrayList<>();
    CustomizedStartupProbe startup = tidb.getCustomizedStartupProbe();
    if (startup != null) {
      VolumeMount probeMount = MemberPods.mount(startup.getBinaryName(), STARTUP_PROBE_DIR, false);
      volumes.add(new VolumeBuilder().withName(startup.getBinaryName()).withNewEmptyDir().endEmptyDir().build());
      main.addToVolumeMounts(probeMount);
      extraInit.add(new ContainerBuilder()
          .withName(startup.getBinaryName())
          .withImage(startup.getImage())
          .withImagePullPolicy("IfNotPresent")
          .withCommand("/bin/sh", "-c")
          .withArgs("cp /" + startup.getBinaryName() + " " + STARTUP_PROBE_DIR + "/" + startup.getBinaryName())
          .withVolumeMounts(probeMount)
          .withSecurityContext(tidb.getSecurityContext())
          .build());
      List<String> command = new ArrayList<>();
      command.add(STARTUP_PROBE_DIR + "/" + startup.getBinaryName());
      if (startup.getArgs() != null) {
        command.addAll(startup.getArgs());
      }
      main.withStartupProbe(new ProbeBuilder()
          .withNewExec().withCommand(command).endExec()
          .withInitialDelaySeconds(startup.getInitialDelaySeconds())
          .withPeriodSeconds(startup.getPeriodSeconds())
          .withTimeoutSeconds(startup.getTimeoutSeconds())
          .withSuccessThreshold(1)
          .withFailureThreshold(startup.getFailureThreshold())
          .build());
    }

    StatefulSet set = MemberPods.statefulSet(new MemberPods.Workload(tc, TidbObjects.COMPONENT, tidb, pod, main.build(),
        volumes, claims, MemberPods.prometheusAnnotations(TidbObjects.STATUS_PORT), plan));
    return withExtraContainers(set, slowLogTailer,
        LogTailers.asNativeSidecar(tidb.getSlowLogTailer()), extraInit);
  }

  /** The TiDB image: {@code baseImage:version} (see {@link Images}). */
  public static String image(TidbCluster tc) {
    TidbSpec tidb = tidb(tc);
    return Images.resolve(TidbObjects.COMPONENT, tidb.getBaseImage(), tidb.getImage(), tidb.getVersion(),
        tc.getSpec().getVersion());
  }

  /** {@code spec.tidb.binlogEnabled}, defaulting to whether the cluster has Pump. */
  static boolean binlogEnabled(TidbCluster tc) {
    Boolean b = tidb(tc).getBinlogEnabled();
    return b == null ? tc.getSpec().getPump() != null : b;
  }

  private static Probe readinessProbe(TidbCluster tc, TidbSpec tidb) {
    if (tidb.getReadinessProbe() != null && "command".equals(tidb.getReadinessProbe().getType())) {
      List<String> command = new ArrayList<>(List.of("curl",
          MemberPods.scheme(tc) + "://127.0.0.1:" + TidbObjects.STATUS_PORT + "/status", "--fail", "--location"));
      if (MemberPods.tlsCluster(tc)) {
        command.addAll(List.of("--cacert", TLS_DIR + "/ca.crt", "--cert", TLS_DIR + "/tls.crt",
            "--key", TLS_DIR + "/tls.key"));
      }
      return MemberPods.withDelays(new ProbeBuilder().withNewExec().withCommand(command).endExec(),
          tidb.getReadinessProbe()).build();
    }
    return MemberPods.tcpReadiness(TidbObjects.SERVER_PORT, tidb.getReadinessProbe());
  }

  private static VolumeMount slowLogMount(TidbSpec tidb, String volumeName, List<VolumeMount> storageMounts) {
    for (VolumeMount m : storageMounts) {
      if (m.getName().equals(TidbObjects.COMPONENT.label() + "-" + volumeName)) {
        return m;
      }
    }
    if (tidb.getAdditionalVolumeMounts() != null) {
      for (VolumeMount m : tidb.getAdditionalVolumeMounts()) {
        if (m.getName().equals(volumeName)) {
          return m;
        }
      }
    }
    throw new IllegalArgumentException("spec.tidb.slowLogVolumeName: Invalid value: \"" + volumeName
        + "\": no storageVolumes entry with a mountPath or additionalVolumeMounts entry has that name");
  }

  private static StatefulSet withExtraContainers(
      StatefulSet set, Container tailer, boolean tailerAsInit, List<Container> extraInit) {
    if (tailer == null && extraInit.isEmpty()) {
      return set;
    }
    List<Container> init = new ArrayList<>();
    List<Container> containers = new ArrayList<>();
    if (tailer != null) {
      (tailerAsInit ? init : containers).add(tailer);
    }
    init.addAll(extraInit);
    List<Container> existingInit = set.getSpec().getTemplate().getSpec().getInitContainers();
    init.addAll(existingInit == null ? List.of() : existingInit);
    containers.addAll(set.getSpec().getTemplate().getSpec().getContainers());
    return MemberPods.withContainers(set, init, containers);
  }

  private static ServicePort port(String name, int port, int target, Integer nodePort) {
    ServicePortBuilder b = new ServicePortBuilder(MemberPods.servicePort(name, port))
        .withTargetPort(new io.fabric8.kubernetes.api.model.IntOrString(target));
    if (nodePort != null && nodePort > 0) {
      b.withNodePort(nodePort);
    }
    return b.build();
  }

  private static boolean tlsClient(TidbSpec tidb) {
    return tidb.getTlsClient() != null && Boolean.TRUE.equals(tidb.getTlsClient().getEnabled());
  }

  private static boolean bootstrapSql(TidbSpec tidb) {
    return tidb.getBootstrapSQLConfigMapName() != null && !tidb.getBootstrapSQLConfigMapName().isEmpty();
  }

  static PodSettings settings(TidbCluster tc) {
    return PodSettings.resolve(tc.getSpec(), tidb(tc));
  }

  private static TidbSpec tidb(TidbCluster tc) {
    TidbSpec tidb = tc.getSpec().getTidb();
    if (tidb == null) {
      throw new IllegalArgumentException("spec.tidb: Required value: the cluster has no TiDB to build objects for");
    }
    return tidb;
  }
}
