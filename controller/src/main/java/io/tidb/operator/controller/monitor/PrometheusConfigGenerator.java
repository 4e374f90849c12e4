package io.tidb.operator.controller.monitor;

import io.tidb.operator.api.v1alpha1.monitor.MetadataConfig;
import io.tidb.operator.api.v1alpha1.monitor.QueueConfig;
import io.tidb.operator.api.v1alpha1.monitor.RelabelConfig;
import io.tidb.operator.api.v1alpha1.monitor.RemoteWriteSpec;
import io.tidb.operator.api.v1alpha1.monitor.TidbMonitor;
import io.tidb.operator.api.v1alpha1.monitor.TidbMonitorSpec;
import io.tidb.operator.api.v1alpha1.monitor.TlsConfig;
import io.tidb.operator.controller.monitor.PrometheusConfig.Alertmanager;
import io.tidb.operator.controller.monitor.PrometheusConfig.Alerting;
import io.tidb.operator.controller.monitor.PrometheusConfig.BasicAuthFiles;
import io.tidb.operator.controller.monitor.PrometheusConfig.Global;
import io.tidb.operator.controller.monitor.PrometheusConfig.KubernetesSd;
import io.tidb.operator.controller.monitor.PrometheusConfig.Metadata;
import io.tidb.operator.controller.monitor.PrometheusConfig.Namespaces;
import io.tidb.operator.controller.monitor.PrometheusConfig.Queue;
import io.tidb.operator.controller.monitor.PrometheusConfig.Relabeling;
import io.tidb.operator.controller.monitor.PrometheusConfig.RemoteWrite;
import io.tidb.operator.controller.monitor.PrometheusConfig.ScrapeConfig;
import io.tidb.operator.controller.monitor.PrometheusConfig.StaticTargets;
import io.tidb.operator.controller.monitor.PrometheusConfig.Tls;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Prometheus configuration a TidbMonitor gets, as upstream generates it: one scrape job per
 * component and referenced cluster ({@code <namespace>-<cluster>-<component>}), pods discovered
 * through the Kubernetes API in the cluster's namespace only, kept when they belong to the cluster
 * (instance label), are annotated {@code prometheus.io/scrape=true} and are that component;
 * addressed by their peer Service DNS name and annotated port; labelled {@code cluster}, {@code
 * instance} (pod), {@code component}, {@code kubernetes_namespace} and {@code tidb_cluster}; TLS
 * clusters scraped with the client certificate from the monitor's TLS assets; the targets split
 * between shards by hash-mod of the address. Pure.
 */
public final class PrometheusConfigGenerator {

  /** Where the monitor pod mounts the copied client certificates (upstream's path). */
  public static final String TLS_ASSETS_PATH = "/var/lib/cluster-assets-tls";

  /** Rules the initializer writes, and rules from {@code prometheus.config.ruleConfigRef}. */
  public static final String INITIALIZER_RULES = "/prometheus-rules/rules/*.rules.yml";

  public static final String EXTERNAL_RULES = "/prometheus-external-rules/*.rules.yml";

  /** The external label naming the replica, unless {@code spec.replicaExternalLabelName} says otherwise. */
  public static final String DEFAULT_REPLICA_LABEL = "prometheus_replica";

  /** Placeholders the config reloader (or the Prometheus container's start command) expands. */
  public static final String SHARD_PLACEHOLDER = "$(SHARD)";

  public static final String REPLICA_PLACEHOLDER = "$(NAMESPACE)_$(POD_NAME)";

  static final String POD_NAME = "__meta_kubernetes_pod_name";
  static final String NAMESPACE = "__meta_kubernetes_namespace";
  static final String NAME_LABEL = "__meta_kubernetes_pod_label_app_kubernetes_io_name";
  static final String INSTANCE_LABEL = "__meta_kubernetes_pod_label_app_kubernetes_io_instance";
  static final String COMPONENT_LABEL = "__meta_kubernetes_pod_label_app_kubernetes_io_component";
  static final String SCRAPE = "__meta_kubernetes_pod_annotation_prometheus_io_scrape";
  static final String PATH = "__meta_kubernetes_pod_annotation_prometheus_io_path";
  static final String PORT = "__meta_kubernetes_pod_annotation_prometheus_io_port";
  static final String TIFLASH_PROXY_PORT =
      "__meta_kubernetes_pod_annotation_tiflash_proxy_prometheus_io_port";

  private static final String FOUR_PARTS = "(.+);(.+);(.+);(.+)";
  private static final Pattern VERSION = Pattern.compile("^v?(\\d+)\\.(\\d+)");

  /** How a scrape job finds and addresses its component's pods, and how TLS applies to it. */
  enum Job {
    PD("pd", "pd", "$1.$2-pd-peer.$3:$4", PORT, false, JobTls.CLUSTER),
    TSO("tso", "tso", "$1.$2-tso-peer.$3:$4", PORT, false, JobTls.CLUSTER),
    SCHEDULING("scheduling", "scheduling", "$1.$2-scheduling-peer.$3:$4", PORT, false, JobTls.CLUSTER),
    TIDB("tidb", "tidb", "$1.$2-tidb-peer.$3:$4", PORT, false, JobTls.CLUSTER),
    TIKV("tikv", "tikv", "$1.$2-tikv-peer.$3:$4", PORT, false, JobTls.CLUSTER),
    TIPROXY("tiproxy", "tiproxy", "$1.$2-tiproxy-peer.$3:$4", PORT, false, JobTls.HTTPS_ONLY),
    TIFLASH("tiflash", "tiflash", "$1.$2-tiflash-peer.$3:$4", PORT, false, JobTls.CLUSTER),
    TIFLASH_PROXY("tiflash-proxy", "tiflash", "$1.$2-tiflash-peer.$3:$4", TIFLASH_PROXY_PORT, false,
        JobTls.CLUSTER),
    PUMP("pump", "pump", "$1.$2-pump.$3:$4", PORT, false, JobTls.CLUSTER),
    DRAINER("drainer", "drainer", "$1.$2.$3:$4", PORT, false, JobTls.CLUSTER),
    TICDC("ticdc", "ticdc", "$1.$2-ticdc-peer.$3:$4", PORT, false, JobTls.CLUSTER),
    LIGHTNING("lightning", "tidb-lightning", "$2.$3:$4", PORT, false, JobTls.HTTPS_ONLY),
    DM_WORKER("dm-worker", "dm-worker", "$1.$2-dm-worker-peer.$3:$4", PORT, true, JobTls.CLUSTER),
    DM_MASTER("dm-master", "dm-master", "$1.$2-dm-master-peer.$3:$4", PORT, true, JobTls.CLUSTER);

    final String job;
    final String component;
    final String addressReplacement;
    final String portLabel;
    final boolean dm;
    final JobTls tls;

    Job(String job, String component, String addressReplacement, String portLabel, boolean dm,
        JobTls tls) {
      this.job = job;
      this.component = component;
      this.addressReplacement = addressReplacement;
      this.portLabel = portLabel;
      this.dm = dm;
      this.tls = tls;
    }

    /** Drainer and Lightning are addressed by their {@code app.kubernetes.io/name}, the rest by instance. */
    String addressNameLabel() {
      return this == DRAINER || this == LIGHTNING ? NAME_LABEL : INSTANCE_LABEL;
    }
  }

  /** TLS clusters: mutual TLS with the cluster's client certificate, or HTTPS without one. */
  enum JobTls {
    CLUSTER,
    HTTPS_ONLY
  }

  private PrometheusConfigGenerator() {}

  /**
   * @param monitor the defaulted TidbMonitor
   * @param tidbClusters the referenced TidbClusters that exist, in spec order
   * @param dmClusters the referenced DMClusters that exist, in spec order
   */
  public static PrometheusConfig generate(
      TidbMonitor monitor, List<MonitoredCluster> tidbClusters, List<MonitoredCluster> dmClusters) {
    return generate(monitor, tidbClusters, dmClusters, RemoteWriteSecrets.Copied.NONE);
  }

  /** As above, with the remote-write credentials the operator copied from Secrets and ConfigMaps. */
  public static PrometheusConfig generate(TidbMonitor monitor, List<MonitoredCluster> tidbClusters,
      List<MonitoredCluster> dmClusters, RemoteWriteSecrets.Copied credentials) {
    TidbMonitorSpec spec = monitor.getSpec();
    long shards = MonitorNames.shards(spec);
    List<ScrapeConfig> jobs = new ArrayList<>();
    for (Job job : Job.values()) {
      for (MonitoredCluster cluster : job.dm ? dmClusters : tidbClusters) {
        jobs.add(scrapeJob(job, cluster, shards));
      }
    }
    Global global = new Global("15s", "15s", externalLabels(spec));
    String alertmanager = spec.getAlertmanagerURL();
    boolean hasAlertmanager = alertmanager != null && !alertmanager.isEmpty();
    Alerting alerting = hasAlertmanager
        ? new Alerting(List.of(new Alertmanager(List.of(new StaticTargets(List.of(alertmanager))))))
        : null;
    List<String> ruleFiles = null;
    if (externalRules(spec)) {
      ruleFiles = List.of(EXTERNAL_RULES);
    } else if (operatorRules(spec)) {
      ruleFiles = List.of(INITIALIZER_RULES, OperatorAlertRules.PATH);
    }
    return new PrometheusConfig(global, jobs, remoteWrite(spec, credentials), alerting, ruleFiles);
  }

  /** {@code prometheus.config.ruleConfigRef}: the user's rules replace every other rule file (upstream). */
  static boolean externalRules(TidbMonitorSpec spec) {
    return spec.getPrometheus().getConfig() != null
        && spec.getPrometheus().getConfig().getRuleConfigRef() != null;
  }

  /**
   * Whether Prometheus loads the initializer's rules and {@link OperatorAlertRules}: with an
   * Alertmanager or {@code enableAlertRules} (upstream's condition), unless external rules replace them.
   */
  public static boolean operatorRules(TidbMonitorSpec spec) {
    String alertmanager = spec.getAlertmanagerURL();
    return !externalRules(spec) && (alertmanager != null && !alertmanager.isEmpty()
        || Boolean.TRUE.equals(spec.getEnableAlertRules()));
  }

  /** The secret a TLS cluster's client certificate is in: {@code <cluster>-cluster-client-secret}, or DM's. */
  public static String clientSecretName(MonitoredCluster cluster, boolean dm) {
    return cluster.name() + (dm ? "-dm-client-secret" : "-cluster-client-secret");
  }

  /** The key of one copied secret entry in the TLS assets Secret (and the file name it is mounted as). */
  public static String tlsAssetKey(String namespace, String secretName, String key) {
    return "secret_" + namespace + "_" + secretName + "_" + key;
  }

  static ScrapeConfig scrapeJob(Job job, MonitoredCluster cluster, long shards) {
    String scheme = cluster.tls() ? "https" : "http";
    Tls tls = Tls.skipVerify();
    if (cluster.tls() && job.tls == JobTls.CLUSTER) {
      String secret = clientSecretName(cluster, job.dm);
      tls = new Tls(
          TLS_ASSETS_PATH + "/" + tlsAssetKey(cluster.namespace(), secret, "ca.crt"),
          TLS_ASSETS_PATH + "/" + tlsAssetKey(cluster.namespace(), secret, "tls.crt"),
          TLS_ASSETS_PATH + "/" + tlsAssetKey(cluster.namespace(), secret, "tls.key"),
          null, null);
    }
    List<Relabeling> relabel = new ArrayList<>();
    relabel.add(Relabeling.keep(INSTANCE_LABEL, cluster.name()));
    relabel.add(Relabeling.keep(NAMESPACE, cluster.namespace()));
    relabel.add(Relabeling.keep(SCRAPE, "true"));
    relabel.add(Relabeling.keep(COMPONENT_LABEL, job.component));
    relabel.add(new Relabeling(List.of(POD_NAME, job.addressNameLabel(), NAMESPACE, job.portLabel),
        null, FOUR_PARTS, null, "__address__", job.addressReplacement, "replace"));
    relabel.add(Relabeling.copy(NAMESPACE, "kubernetes_namespace"));
    relabel.add(Relabeling.copy(INSTANCE_LABEL, "cluster"));
    relabel.add(Relabeling.copy(POD_NAME, "instance"));
    relabel.add(Relabeling.copy(COMPONENT_LABEL, "component"));
    relabel.add(new Relabeling(List.of(NAMESPACE, INSTANCE_LABEL), "-", null, null,
        "tidb_cluster", null, null));
    relabel.add(new Relabeling(List.of(PATH), null, "(.+)", null, "__metrics_path__", null,
        "replace"));
    relabel.add(new Relabeling(List.of("__address__"), null, null, shards, "__tmp_hash", null,
        "hashmod"));
    relabel.add(new Relabeling(List.of("__tmp_hash"), null, SHARD_PLACEHOLDER, null, null, null,
        "keep"));
    return new ScrapeConfig(
        cluster.namespace() + "-" + cluster.name() + "-" + job.job,
        true,
        "15s",
        scheme,
        List.of(new KubernetesSd("pod", new Namespaces(List.of(cluster.namespace())))),
        tls,
        relabel);
  }

  static Map<String, String> externalLabels(TidbMonitorSpec spec) {
    Map<String, String> labels = new LinkedHashMap<>();
    String replica = spec.getReplicaExternalLabelName() == null
        ? DEFAULT_REPLICA_LABEL
        : spec.getReplicaExternalLabelName();
    if (!replica.isEmpty()) {
      labels.put(replica, REPLICA_PLACEHOLDER);
    }
    if (spec.getExternalLabels() != null) {
      labels.putAll(spec.getExternalLabels());
    }
    return labels;
  }

  /** Prometheus reads {@code basic_auth.username_file} from 2.49 on. */
  static boolean readsUsernameFile(TidbMonitorSpec spec) {
    return atLeast(version(spec.getPrometheus().getVersion()), 2, 49);
  }

  static List<RemoteWrite> remoteWrite(TidbMonitorSpec spec, RemoteWriteSecrets.Copied credentials) {
    List<RemoteWriteSpec> specs = spec.getPrometheus().getRemoteWrite();
    if (specs == null || specs.isEmpty()) {
      return null;
    }
    int[] version = version(spec.getPrometheus().getVersion());
    boolean v2_25 = atLeast(version, 2, 25);
    List<RemoteWrite> out = new ArrayList<>();
    for (int i = 0; i < specs.size(); i++) {
      RemoteWriteSpec rw = specs.get(i);
      if (credentials.incomplete().contains(i)) {
        continue;
      }
      out.add(new RemoteWrite(
          rw.getUrl(),
          rw.getRemoteTimeout() == null || rw.getRemoteTimeout().isEmpty() ? "30s" : rw.getRemoteTimeout(),
          v2_25 ? rw.getHeaders() : null,
          v2_25 ? rw.getName() : null,
          relabelings(rw.getWriteRelabelConfigs()),
          basicAuth(rw, i, credentials),
          rw.getBearerToken(),
          rw.getBearerTokenFile(),
          tlsFiles(rw, i),
          rw.getProxyUrl(),
          queue(rw.getQueueConfig(), atLeast(version, 2, 6), !atLeast(version, 2, 11)),
          metadata(rw.getMetadataConfig(), atLeast(version, 2, 23))));
    }
    return out;
  }

  private static List<Relabeling> relabelings(List<RelabelConfig> configs) {
    if (configs == null) {
      return null;
    }
    return configs.stream()
        .map(c -> new Relabeling(
            c.getSourceLabels() == null || c.getSourceLabels().isEmpty() ? null : c.getSourceLabels(),
            emptyToNull(c.getSeparator()), emptyToNull(c.getRegex()),
            c.getModulus() == null || c.getModulus() == 0 ? null : c.getModulus(),
            emptyToNull(c.getTargetLabel()), emptyToNull(c.getReplacement()),
            emptyToNull(c.getAction())))
        .toList();
  }

  private static BasicAuthFiles basicAuth(RemoteWriteSpec rw, int index, RemoteWriteSecrets.Copied credentials) {
    if (rw.getBasicAuth() == null) {
      return null;
    }
    String inline = credentials.usernames().get(index);
    return new BasicAuthFiles(
        inline,
        inline == null && RemoteWriteSecrets.referenced(rw, RemoteWriteSecrets.Item.USERNAME)
            ? RemoteWriteSecrets.file(index, RemoteWriteSecrets.Item.USERNAME) : null,
        RemoteWriteSecrets.referenced(rw, RemoteWriteSecrets.Item.PASSWORD)
            ? RemoteWriteSecrets.file(index, RemoteWriteSecrets.Item.PASSWORD) : null);
  }

  /** File paths as given, or the copies of the Secret and ConfigMap keys the remote write names. */
  private static Tls tlsFiles(RemoteWriteSpec rw, int index) {
    TlsConfig tls = rw.getTlsConfig();
    if (tls == null) {
      return null;
    }
    Tls out = new Tls(
        fileOrCopy(tls.getCaFile(), rw, index, RemoteWriteSecrets.Item.CA),
        fileOrCopy(tls.getCertFile(), rw, index, RemoteWriteSecrets.Item.CERT),
        fileOrCopy(tls.getKeyFile(), rw, index, RemoteWriteSecrets.Item.KEY),
        emptyToNull(tls.getServerName()),
        Boolean.TRUE.equals(tls.getInsecureSkipVerify()) ? Boolean.TRUE : null);
    return out.equals(new Tls(null, null, null, null, null)) ? null : out;
  }

  private static String fileOrCopy(String file, RemoteWriteSpec rw, int index, RemoteWriteSecrets.Item item) {
    if (RemoteWriteSecrets.referenced(rw, item)) {
      return RemoteWriteSecrets.file(index, item);
    }
    return emptyToNull(file);
  }

  /** {@code max_retries} was removed in Prometheus 2.11 (it retries with backoff), which refuses it. */
  private static Queue queue(QueueConfig q, boolean minShardsSupported, boolean maxRetriesSupported) {
    if (q == null) {
      return null;
    }
    return new Queue(
        positive(q.getCapacity()),
        minShardsSupported ? positive(q.getMinShards()) : null,
        positive(q.getMaxShards()),
        positive(q.getMaxSamplesPerSend()),
        duration(q.getBatchSendDeadline()),
        maxRetriesSupported ? positive(q.getMaxRetries()) : null,
        duration(q.getMinBackoff()),
        duration(q.getMaxBackoff()));
  }

  private static Metadata metadata(MetadataConfig m, boolean supported) {
    if (m == null || !supported) {
      return null;
    }
    return new Metadata(Boolean.TRUE.equals(m.getSend()), emptyToNull(m.getSendInterval()));
  }

  /** A Go {@code time.Duration} (nanoseconds, as upstream's API stores it) as a Prometheus duration. */
  static String duration(Long nanos) {
    if (nanos == null || nanos <= 0) {
      return null;
    }
    long millis = Math.max(1, nanos / 1_000_000);
    return millis % 1000 == 0 ? (millis / 1000) + "s" : millis + "ms";
  }

  /** Major and minor of a Prometheus image tag; a tag that is not a version counts as the newest. */
  static int[] version(String tag) {
    Matcher m = VERSION.matcher(tag == null ? "" : tag);
    if (!m.find()) {
      return new int[] {Integer.MAX_VALUE, 0};
    }
    return new int[] {Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2))};
  }

  private static boolean atLeast(int[] version, int major, int minor) {
    return version[0] > major || (version[0] == major && version[1] >= minor);
  }

  private static Integer positive(Integer value) {
    return value == null || value == 0 ? null : value;
  }

  private static String emptyToNull(String s) {
    return s == null || s.isEmpty() ? null : s;
  }
}
