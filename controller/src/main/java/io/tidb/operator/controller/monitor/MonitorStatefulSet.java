package io.tidb.operator.controller.monitor;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.ProbeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import io.fabric8.kubernetes.api.model.SecretKeySelector;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder;
import io.tidb.operator.api.v1alpha1.cluster.ContainerResources;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.monitor.GrafanaSpec;
import io.tidb.operator.api.v1alpha1.monitor.InitializerSpec;
import io.tidb.operator.api.v1alpha1.monitor.MonitorContainer;
import io.tidb.operator.api.v1alpha1.monitor.PrometheusSpec;
import io.tidb.operator.api.v1alpha1.monitor.ThanosSpec;
import io.tidb.operator.api.v1alpha1.monitor.TidbMonitor;
import io.tidb.operator.api.v1alpha1.monitor.TidbMonitorSpec;
import io.tidb.operator.controller.tidbcluster.member.Containers;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One shard's StatefulSet, as upstream builds it: the {@code monitor-initializer} (and {@code
 * dm-initializer}) init containers; {@code prometheus}, {@code reloader}, an optional {@code
 * thanos-sidecar} and {@code prometheus-config-reloader}, {@code additionalContainers} merged by
 * name or added, then {@code grafana}; the data volume as an emptyDir or a claim template. Pure.
 */
public final class MonitorStatefulSet {

  /** On the pod template when no config reloader runs: a new configuration restarts the pods. */
  public static final String CONFIG_DIGEST_ANNOTATION = "tidb.pingcap.com/prometheus-config-digest";

  static final String CONFIG_KEY = "prometheus.yml";
  private static final String DATA = MonitorNames.DATA_VOLUME;

  private MonitorStatefulSet() {}

  /**
   * @param tm the defaulted monitor
   * @param firstCluster the first referenced TidbCluster found, for the initializer; may be null
   * @param firstDm the first referenced DMCluster found (namespace and name); may be null
   * @param configDigest digest of the Prometheus ConfigMap
   */
  public static StatefulSet build(
      TidbMonitor tm, int shard, TidbCluster firstCluster, MonitoredCluster firstDm,
      String configDigest) {
    TidbMonitorSpec spec = tm.getSpec();
    String instance = MonitorNames.instance(tm, shard);
    Map<String, String> labels = MonitorLabels.of(instance);
    Map<String, String> podAnnotations = MonitorLabels.combine(spec.getAnnotations());
    if (spec.getPrometheusReloader() == null) {
      podAnnotations.put(CONFIG_DIGEST_ANNOTATION, configDigest);
    }

    List<Container> init = new ArrayList<>();
    init.add(initializer(tm, firstCluster));
    if (spec.getDm() != null && spec.getDm().getClusters() != null
        && !spec.getDm().getClusters().isEmpty() && firstDm != null) {
      init.add(dmInitializer(tm, firstDm));
    }
    List<Container> containers = new ArrayList<>();
    containers.add(prometheus(tm, shard));
    containers.add(reloader(tm));
    if (spec.getThanos() != null) {
      containers.add(thanos(tm));
    }
    if (spec.getPrometheusReloader() != null) {
      containers.add(prometheusReloader(tm, shard));
    }
    containers = mergeAdditional(containers, spec.getAdditionalContainers());
    if (spec.getGrafana() != null) {
      containers.add(grafana(tm));
    }
    List<Volume> volumes = volumes(tm);
    if (Boolean.FALSE.equals(spec.getAutomountServiceAccountToken())) {
      volumes.add(ServiceAccountToken.volume());
      init = init.stream().map(ServiceAccountToken::mounted).toList();
      containers = containers.stream().map(ServiceAccountToken::mounted).toList();
    }

    return new StatefulSetBuilder()
        .withNewMetadata()
            .withName(MonitorNames.statefulSet(tm, shard))
            .withNamespace(tm.getMetadata().getNamespace())
            .withLabels(labels)
            .withAnnotations(spec.getAnnotations() == null || spec.getAnnotations().isEmpty()
                ? null : MonitorLabels.combine(spec.getAnnotations()))
            .withOwnerReferences(MonitorLabels.ownerRefs(tm))
        .endMetadata()
        .withNewSpec()
            .withServiceName(MonitorNames.statefulSet(tm, shard))
            .withReplicas(MonitorNames.replicas(spec))
            .withNewUpdateStrategy().withType("RollingUpdate").endUpdateStrategy()
            .withNewSelector().withMatchLabels(labels).endSelector()
            .withNewTemplate()
                .withNewMetadata()
                    .withLabels(MonitorLabels.combine(labels, spec.getLabels()))
                    .withAnnotations(podAnnotations.isEmpty() ? null : podAnnotations)
                .endMetadata()
                .withNewSpec()
                    .withSecurityContext(spec.getPodSecurityContext())
                    .withServiceAccountName(MonitorNames.monitor(tm))
                    .withInitContainers(init)
                    .withContainers(containers)
                    .withVolumes(volumes)
                    .withTolerations(spec.getTolerations())
                    .withNodeSelector(spec.getNodeSelector())
                    .withImagePullSecrets(spec.getImagePullSecrets())
                .endSpec()
            .endTemplate()
            .withVolumeClaimTemplates(claims(spec))
        .endSpec()
        .build();
  }

  static String timezone(TidbMonitorSpec spec) {
    return spec.getTimezone() == null || spec.getTimezone().isEmpty() ? "UTC" : spec.getTimezone();
  }

  static String rulesVersion(TidbMonitorSpec spec) {
    String v = spec.getAlertManagerRulesVersion() != null
        ? spec.getAlertManagerRulesVersion()
        : spec.getInitializer().getVersion();
    return "tidb:" + v;
  }

  static Container initializer(TidbMonitor tm, TidbCluster tc) {
    TidbMonitorSpec spec = tm.getSpec();
    InitializerSpec is = spec.getInitializer();
    List<EnvVar> env = new ArrayList<>();
    env.add(env("PROM_CONFIG_PATH", "/prometheus-rules"));
    env.add(env("PROM_PERSISTENT_DIR", "/data"));
    env.add(env("GF_TIDB_PROMETHEUS_URL", "http://127.0.0.1:9090"));
    env.add(env("TIDB_VERSION", rulesVersion(spec)));
    if (tc != null) {
      String tz = tc.getSpec().getTimezone();
      env.add(env("TZ", tz == null || tz.isEmpty() ? "UTC" : tz));
      boolean binlog = tc.getSpec().getPump() != null
          && !Objects.equals(tc.getSpec().getPump().getReplicas(), 0);
      env.add(env("TIDB_ENABLE_BINLOG", Boolean.toString(binlog)));
      env.add(env("TIDB_CLUSTER_NAME", tc.getMetadata().getName()));
      env.add(env("TIDB_CLUSTER_NAMESPACE", tc.getMetadata().getNamespace()));
    } else {
      env.add(env("TZ", timezone(spec)));
    }
    if (spec.getKubePrometheusURL() != null) {
      env.add(env("GF_K8S_PROMETHEUS_URL", spec.getKubePrometheusURL()));
    }
    List<VolumeMount> mounts = new ArrayList<>(List.of(
        mount("prometheus-rules", "/prometheus-rules", false),
        mount(DATA, "/data", false)));
    if (spec.getGrafana() != null) {
      mounts.addAll(grafanaInitMounts());
      env.addAll(grafanaInitEnv());
    }
    return new ContainerBuilder()
        .withName("monitor-initializer")
        .withImage(image(is))
        .withImagePullPolicy(pullPolicy(is, spec))
        .withEnv(overwrite(env, is.getEnvs()))
        .withCommand("/bin/sh", "-c", initCommand(spec))
        .withVolumeMounts(mounts)
        .withResources(resources(is))
        .withSecurityContext(is.getSecurityContext())
        .build();
  }

  static Container dmInitializer(TidbMonitor tm, MonitoredCluster dm) {
    TidbMonitorSpec spec = tm.getSpec();
    InitializerSpec is = spec.getDm().getInitializer();
    List<EnvVar> env = new ArrayList<>(List.of(
        env("DM_CLUSTER_NAME", dm.name()),
        env("PROM_CONFIG_PATH", "/prometheus-rules"),
        env("PROM_PERSISTENT_DIR", "/data"),
        env("DM_VERSION", rulesVersion(spec)),
        env("GF_DM_PROMETHEUS_URL", "http://127.0.0.1:9090"),
        env("DM_CLUSTER_NAMESPACE", dm.namespace()),
        env("TZ", timezone(spec))));
    List<VolumeMount> mounts = new ArrayList<>(List.of(
        mount("prometheus-rules", "/prometheus-rules", false),
        mount(DATA, "/data", false)));
    if (spec.getGrafana() != null) {
      mounts.addAll(grafanaInitMounts());
      env.addAll(grafanaInitEnv());
    }
    return new ContainerBuilder()
        .withName("dm-initializer")
        .withImage(image(is))
        .withImagePullPolicy(pullPolicy(is, spec))
        .withEnv(overwrite(env, is.getEnvs()))
        .withCommand("/bin/sh", "-c", initCommand(spec))
        .withVolumeMounts(mounts)
        .withResources(resources(is))
        .withSecurityContext(is.getSecurityContext())
        .build();
  }

  private static String initCommand(TidbMonitorSpec spec) {
    String dirs = spec.getGrafana() == null ? "/data/prometheus" : "/data/prometheus /data/grafana";
    return "mkdir -p " + dirs + "\nchmod 777 " + dirs + "\n/usr/bin/init.sh";
  }

  private static List<VolumeMount> grafanaInitMounts() {
    return List.of(
        mount("datasource", "/etc/grafana/provisioning/datasources", false),
        mount("grafana-dashboard", "/grafana-dashboard-definitions/tidb", false));
  }

  private static List<EnvVar> grafanaInitEnv() {
    return List.of(
        env("GF_PROVISIONING_PATH", "/grafana-dashboard-definitions/tidb"),
        env("GF_DATASOURCE_PATH", "/etc/grafana/provisioning/datasources"));
  }

  /**
   * Prometheus' start command: the placeholders of the ConfigMap ({@code $(NAMESPACE)}, {@code
   * $(POD_NAME)}, {@code $(SHARD)}) are expanded into {@code config_out}, then Prometheus starts.
   */
  static String prometheusCommand(TidbMonitorSpec spec) {
    PrometheusSpec p = spec.getPrometheus();
    String retention = p.getRetentionTime() != null
        ? p.getRetentionTime()
        : (p.getReserveDays() == null ? 0 : p.getReserveDays()) + "d";
    List<String> parts = new ArrayList<>();
    parts.add("sed -e \"s/\\$(NAMESPACE)/$NAMESPACE/g\" -e \"s/\\$(POD_NAME)/$POD_NAME/g\""
        + " -e \"s/\\$(SHARD)/$SHARD/g\" /etc/prometheus/config/prometheus.yml"
        + " > /etc/prometheus/config_out/prometheus.yml &&"
        + " exec /bin/prometheus --web.enable-admin-api --web.enable-lifecycle"
        + " --config.file=/etc/prometheus/config_out/prometheus.yml"
        + " --storage.tsdb.path=/data/prometheus --storage.tsdb.retention.time=" + retention);
    if (p.getLogLevel() != null && !p.getLogLevel().isEmpty()) {
      parts.add("--log.level=" + p.getLogLevel());
    }
    if (p.getConfig() != null && p.getConfig().getCommandOptions() != null) {
      parts.addAll(p.getConfig().getCommandOptions());
    }
    if (Boolean.TRUE.equals(p.getDisableCompaction()) || spec.getThanos() != null) {
      parts.add("--storage.tsdb.max-block-duration=2h");
      parts.add("--storage.tsdb.min-block-duration=2h");
    }
    return String.join(" ", parts);
  }

  static Container prometheus(TidbMonitor tm, int shard) {
    TidbMonitorSpec spec = tm.getSpec();
    PrometheusSpec p = spec.getPrometheus();
    List<VolumeMount> mounts = new ArrayList<>(List.of(
        mount("prometheus-config-out", "/etc/prometheus/config_out", false),
        mount("prometheus-config", "/etc/prometheus/config", true),
        mount(DATA, "/data", false),
        mount("prometheus-rules", "/prometheus-rules", false),
        mount("tls-assets", PrometheusConfigGenerator.TLS_ASSETS_PATH, true)));
    if (p.getAdditionalVolumeMounts() != null) {
      mounts.addAll(p.getAdditionalVolumeMounts());
    }
    if (hasExternalRules(p)) {
      mounts.add(mount("external-rules", "/prometheus-external-rules", true));
    }
    return new ContainerBuilder()
        .withName("prometheus")
        .withImage(image(p))
        .withImagePullPolicy(pullPolicy(p, spec))
        .withCommand("/bin/sh", "-c", prometheusCommand(spec))
        .addNewPort().withName("prometheus").withContainerPort(9090).withProtocol("TCP").endPort()
        .withEnv(fieldEnv("POD_NAME", "metadata.name"), fieldEnv("NAMESPACE", "metadata.namespace"),
            env("SHARD", Integer.toString(shard)), env("TZ", timezone(spec)))
        .withVolumeMounts(mounts)
        .withReadinessProbe(httpProbe("/-/ready", 9090, 3, 5, 120, null, null))
        .withResources(resources(p))
        .withSecurityContext(p.getSecurityContext())
        .build();
  }

  static Container reloader(TidbMonitor tm) {
    TidbMonitorSpec spec = tm.getSpec();
    return new ContainerBuilder()
        .withName("reloader")
        .withImage(image(spec.getReloader()))
        .withImagePullPolicy(pullPolicy(spec.getReloader(), spec))
        .withCommand("/bin/reload", "--root-store-path=/data",
            "--sub-store-path=" + rulesVersion(spec), "--watch-path=/prometheus-rules/rules",
            "--prometheus-url=http://127.0.0.1:9090")
        .addNewPort().withName("reloader").withContainerPort(9089).withProtocol("TCP").endPort()
        .withVolumeMounts(mount("prometheus-rules", "/prometheus-rules", false), mount(DATA, "/data", false))
        .withEnv(env("TZ", timezone(spec)))
        .withResources(resources(spec.getReloader()))
        .withSecurityContext(spec.getReloader().getSecurityContext())
        .build();
  }

  static Container prometheusReloader(TidbMonitor tm, int shard) {
    TidbMonitorSpec spec = tm.getSpec();
    List<String> command = new ArrayList<>(List.of(
        "/bin/prometheus-config-reloader", "--listen-address=:9088",
        "--reload-url=http://localhost:9090/-/reload",
        "--config-file=/etc/prometheus/config/prometheus.yml",
        "--config-envsubst-file=/etc/prometheus/config_out/prometheus.yml"));
    List<VolumeMount> mounts = new ArrayList<>(List.of(
        mount("prometheus-config-out", "/etc/prometheus/config_out", false),
        mount("prometheus-config", "/etc/prometheus/config", true)));
    if (hasExternalRules(spec.getPrometheus())) {
      mounts.add(mount("external-rules", "/prometheus-external-rules", true));
      command.add("--watched-dir=/prometheus-external-rules");
    }
    return new ContainerBuilder()
        .withName("prometheus-config-reloader")
        .withImage(image(spec.getPrometheusReloader()))
        .withImagePullPolicy(pullPolicy(spec.getPrometheusReloader(), spec))
        .withCommand(command)
        .addNewPort().withName("reloader").withContainerPort(9088).withProtocol("TCP").endPort()
        .withEnv(fieldEnv("POD_NAME", "metadata.name"), fieldEnv("NAMESPACE", "metadata.namespace"),
            env("SHARD", Integer.toString(shard)))
        .withVolumeMounts(mounts)
        .withResources(resources(spec.getPrometheusReloader()))
        .withSecurityContext(spec.getPrometheusReloader().getSecurityContext())
        .build();
  }

  static Container thanos(TidbMonitor tm) {
    ThanosSpec t = tm.getSpec().getThanos();
    String bind = Boolean.TRUE.equals(t.getListenLocal()) ? "127.0.0.1" : "[$(POD_IP)]";
    String prefix = t.getRoutePrefix() == null || t.getRoutePrefix().isEmpty()
        ? "" : t.getRoutePrefix().replaceAll("^/+", "").replaceAll("/+$", "");
    List<String> args = new ArrayList<>(List.of("sidecar",
        "--prometheus.url=http://localhost:9090/" + prefix,
        "--grpc-address=" + bind + ":10901", "--http-address=" + bind + ":10902"));
    if (t.getGrpcServerTlsConfig() != null) {
      var tls = t.getGrpcServerTlsConfig();
      if (notEmpty(tls.getCertFile())) {
        args.add("--grpc-server-tls-cert=" + tls.getCertFile());
      }
      if (notEmpty(tls.getKeyFile())) {
        args.add("--grpc-server-tls-key=" + tls.getKeyFile());
      }
      if (notEmpty(tls.getCaFile())) {
        args.add("--grpc-server-tls-client-ca=" + tls.getCaFile());
      }
    }
    List<EnvVar> env = new ArrayList<>(List.of(fieldEnv("POD_IP", "status.podIP"),
        fieldEnv("POD_NAME", "metadata.name"), fieldEnv("NAMESPACE", "metadata.namespace")));
    List<VolumeMount> mounts = new ArrayList<>();
    if (t.getObjectStorageConfig() != null || t.getObjectStorageConfigFile() != null) {
      if (t.getObjectStorageConfigFile() != null) {
        args.add("--objstore.config-file=" + t.getObjectStorageConfigFile());
      } else {
        args.add("--objstore.config=$(OBJSTORE_CONFIG)");
        env.add(secretEnv("OBJSTORE_CONFIG", t.getObjectStorageConfig()));
      }
      args.add("--tsdb.path=/data/prometheus");
      mounts.add(mount(DATA, "/data", false));
    }
    if (t.getTracingConfig() != null || t.getTracingConfigFile() != null) {
      if (t.getTracingConfigFile() != null) {
        args.add("--tracing.config-file=" + t.getTracingConfigFile());
      } else {
        args.add("--tracing.config=$(TRACING_CONFIG)");
        env.add(secretEnv("TRACING_CONFIG", t.getTracingConfig()));
      }
    }
    if (notEmpty(t.getLogLevel())) {
      args.add("--log.level=" + t.getLogLevel());
    }
    if (notEmpty(t.getLogFormat())) {
      args.add("--log.format=" + t.getLogFormat());
    }
    if (notEmpty(t.getMinTime())) {
      args.add("--min-time=" + t.getMinTime());
    }
    if (t.getAdditionalVolumeMounts() != null) {
      mounts.addAll(t.getAdditionalVolumeMounts());
    }
    return new ContainerBuilder()
        .withName("thanos-sidecar")
        .withImage(image(t))
        .withImagePullPolicy(pullPolicy(t, tm.getSpec()))
        .withArgs(args)
        .withEnv(env)
        .addNewPort().withName("http").withContainerPort(10902).withProtocol("TCP").endPort()
        .addNewPort().withName("grpc").withContainerPort(10901).withProtocol("TCP").endPort()
        .withVolumeMounts(mounts)
        .withResources(resources(t))
        .withSecurityContext(t.getSecurityContext())
        .build();
  }

  static Container grafana(TidbMonitor tm) {
    TidbMonitorSpec spec = tm.getSpec();
    GrafanaSpec g = spec.getGrafana();
    SecretKeySelector user = g.getUsernameSecret() != null
        ? g.getUsernameSecret() : new SecretKeySelector("username", MonitorNames.monitor(tm), null);
    SecretKeySelector password = g.getPasswordSecret() != null
        ? g.getPasswordSecret() : new SecretKeySelector("password", MonitorNames.monitor(tm), null);
    List<EnvVar> env = new ArrayList<>(List.of(
        env("GF_PATHS_DATA", "/data/grafana"),
        secretEnv("GF_SECURITY_ADMIN_USER", user),
        secretEnv("GF_SECURITY_ADMIN_PASSWORD", password),
        env("TZ", timezone(spec))));
    List<EnvVar> sorted = new ArrayList<>(overwrite(env, g.getEnvs()));
    sorted.sort((a, b) -> a.getName().compareTo(b.getName()));
    List<VolumeMount> mounts = new ArrayList<>(List.of(
        mount(DATA, "/data", false),
        mount("datasource", "/etc/grafana/provisioning/datasources", false),
        mount("dashboards-provisioning", "/etc/grafana/provisioning/dashboards", false),
        mount("grafana-dashboard", "/grafana-dashboard-definitions/tidb", false)));
    if (g.getAdditionalVolumeMounts() != null) {
      mounts.addAll(g.getAdditionalVolumeMounts());
    }
    return new ContainerBuilder()
        .withName("grafana")
        .withImage(image(g))
        .withImagePullPolicy(pullPolicy(g, spec))
        .addNewPort().withName("grafana").withContainerPort(3000).withProtocol("TCP").endPort()
        .withEnv(sorted)
        .withVolumeMounts(mounts)
        .withReadinessProbe(httpProbe("/api/health", 3000, 5, 10, null, 1, null))
        .withLivenessProbe(httpProbe("/api/health", 3000, 5, 10, 10, 1, 30))
        .withResources(resources(g))
        .withSecurityContext(g.getSecurityContext())
        .build();
  }

  static List<Volume> volumes(TidbMonitor tm) {
    TidbMonitorSpec spec = tm.getSpec();
    List<Volume> v = new ArrayList<>();
    if (!Boolean.TRUE.equals(spec.getPersistent())) {
      v.add(emptyDir(DATA));
    }
    v.add(configMapVolume("prometheus-config", MonitorNames.monitor(tm)));
    if (spec.getGrafana() != null) {
      v.add(emptyDir("datasource"));
      v.add(configMapVolume("dashboards-provisioning", MonitorNames.grafanaConfigMap(tm)));
      v.add(emptyDir("grafana-dashboard"));
    }
    v.add(emptyDir("prometheus-rules"));
    v.add(emptyDir("prometheus-config-out"));
    if (spec.getAdditionalVolumes() != null) {
      v.addAll(spec.getAdditionalVolumes());
    }
    v.add(new VolumeBuilder().withName("tls-assets").withNewSecret()
        .withSecretName(MonitorNames.tlsAssets(tm)).withDefaultMode(420).endSecret().build());
    if (hasExternalRules(spec.getPrometheus())) {
      v.add(configMapVolume("external-rules",
          spec.getPrometheus().getConfig().getRuleConfigRef().getName()));
    }
    return v;
  }

  /** The data volume's claim template when persistent with a size; none otherwise (as upstream). */
  static List<PersistentVolumeClaim> claims(TidbMonitorSpec spec) {
    if (!Boolean.TRUE.equals(spec.getPersistent()) || spec.getStorage() == null
        || spec.getStorage().isEmpty()) {
      return null;
    }
    return List.of(new PersistentVolumeClaimBuilder()
        .withNewMetadata().withName(DATA).endMetadata()
        .withNewSpec()
            .withAccessModes("ReadWriteOnce")
            .withStorageClassName(spec.getStorageClassName())
            .withNewResources().addToRequests("storage", new Quantity(spec.getStorage())).endResources()
        .endSpec()
        .build());
  }

  /** Containers named like one of ours are merged into it; others are added after them. */
  static List<Container> mergeAdditional(List<Container> ours, List<Container> additional) {
    if (additional == null || additional.isEmpty()) {
      return new ArrayList<>(ours);
    }
    List<Container> out = new ArrayList<>(ours);
    for (Container extra : additional) {
      Optional<Integer> at = indexOf(out, extra.getName());
      if (at.isPresent()) {
        out.set(at.get(), Containers.merge(out.get(at.get()), extra));
      } else {
        out.add(extra);
      }
    }
    return out;
  }

  private static Optional<Integer> indexOf(List<Container> list, String name) {
    for (int i = 0; i < list.size(); i++) {
      if (Objects.equals(list.get(i).getName(), name)) {
        return Optional.of(i);
      }
    }
    return Optional.empty();
  }

  static boolean hasExternalRules(PrometheusSpec p) {
    return p.getConfig() != null && p.getConfig().getRuleConfigRef() != null;
  }

  private static String image(MonitorContainer c) {
    return c.getBaseImage() + ":" + c.getVersion();
  }

  private static String pullPolicy(MonitorContainer c, TidbMonitorSpec spec) {
    return c.getImagePullPolicy() != null ? c.getImagePullPolicy() : spec.getImagePullPolicy();
  }

  private static ResourceRequirements resources(ContainerResources r) {
    if (r.getRequests() == null && r.getLimits() == null && r.getClaims() == null) {
      return null;
    }
    Map<String, Quantity> requests = r.getRequests() == null ? null : new LinkedHashMap<>(r.getRequests());
    if (requests != null) {
      requests.remove("storage");
    }
    return new ResourceRequirementsBuilder()
        .withRequests(requests == null || requests.isEmpty() ? null : requests)
        .withLimits(r.getLimits())
        .withClaims(r.getClaims())
        .build();
  }

  /** {@code base}, then each of {@code overrides} replacing the variable of the same name or added. */
  static List<EnvVar> overwrite(List<EnvVar> base, Map<String, String> overrides) {
    List<EnvVar> out = new ArrayList<>(base);
    if (overrides == null) {
      return out;
    }
    overrides.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> {
      out.removeIf(v -> v.getName().equals(e.getKey()));
      out.add(env(e.getKey(), e.getValue()));
    });
    return out;
  }

  private static Probe httpProbe(String path, int port, Integer timeout, Integer period,
      Integer failure, Integer success, Integer initialDelay) {
    return new ProbeBuilder()
        .withNewHttpGet().withPath(path).withNewPort(port).endHttpGet()
        .withTimeoutSeconds(timeout)
        .withPeriodSeconds(period)
        .withFailureThreshold(failure)
        .withSuccessThreshold(success)
        .withInitialDelaySeconds(initialDelay)
        .build();
  }

  private static Volume emptyDir(String name) {
    return new VolumeBuilder().withName(name).withNewEmptyDir().endEmptyDir().build();
  }

  private static Volume configMapVolume(String name, String configMap) {
    return new VolumeBuilder().withName(name).withNewConfigMap().withName(configMap).endConfigMap().build();
  }

  /**
   * A volume mount; {@code readOnly} is written only when true, as the API server stores it (a
   * {@code readOnly: false} never comes back, and the StatefulSet would never match as desired).
   */
  static VolumeMount mount(String name, String path, boolean readOnly) {
    VolumeMountBuilder mount = new VolumeMountBuilder().withName(name).withMountPath(path);
    return (readOnly ? mount.withReadOnly(true) : mount).build();
  }

  static EnvVar env(String name, String value) {
    return new EnvVarBuilder().withName(name).withValue(value).build();
  }

  private static EnvVar fieldEnv(String name, String fieldPath) {
    return new EnvVarBuilder().withName(name).withNewValueFrom().withNewFieldRef()
        .withFieldPath(fieldPath).endFieldRef().endValueFrom().build();
  }

  private static EnvVar secretEnv(String name, SecretKeySelector selector) {
    return new EnvVarBuilder().withName(name).withNewValueFrom().withSecretKeyRef(selector)
        .endValueFrom().build();
  }

  private static boolean notEmpty(String s) {
    return s != null && !s.isEmpty();
  }
}
