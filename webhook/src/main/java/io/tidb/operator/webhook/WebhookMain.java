package io.tidb.operator.webhook;

import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.tidb.operator.api.validation.AdmissionRules;
import io.tidb.operator.api.validation.cluster.TidbClusterAdmissionRules;
import io.tidb.operator.api.validation.initializer.TidbInitializerAdmissionRules;
import io.tidb.operator.api.validation.backup.BackupAdmissionRules;
import io.tidb.operator.api.validation.backup.BackupScheduleAdmissionRules;
import io.tidb.operator.api.validation.backup.RestoreAdmissionRules;
import io.tidb.operator.api.validation.dm.DmClusterAdmissionRules;
import io.tidb.operator.api.validation.monitor.TidbMonitorAdmissionRules;
import io.tidb.operator.certs.ClusterCaTrust;
import io.tidb.operator.certs.KeyAlgorithm;
import io.tidb.operator.certs.RenewalPolicy;
import io.tidb.operator.certs.ServingNames;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * The webhook process: serves TidbCluster admission over HTTPS with certificates from a Secret it
 * manages itself or from mounted files. Flag names match the Helm chart's {@code
 * tidb-operator.webhook.args}.
 */
@Command(
    name = "tidb-operator-webhook",
    mixinStandardHelpOptions = true,
    subcommands = {ClassDataTraining.class},
    description = "Validating and mutating admission webhook for pingcap.com TidbClusters (HTTPS only).")
public final class WebhookMain implements Callable<Integer> {

  static final String JETTY_REFERENCES_PER_CACHE_LINE = "org.eclipse.jetty.util.referencesPerCacheLine";

  @Option(names = "--port", defaultValue = "9443", description = "HTTPS port (default ${DEFAULT-VALUE}).")
  int port;

  @Option(names = "--bind-address", defaultValue = "0.0.0.0",
      description = "Address to listen on (default ${DEFAULT-VALUE}; 127.0.0.1 for local runs).")
  String bindAddress;

  @Option(names = "--cert-mode", defaultValue = "AUTO",
      description = "auto, secret or files. auto: files when --cert-dir is set, else secret.")
  CertificateMode certMode;

  @Option(names = "--cert-dir",
      description = "Directory with tls.crt and tls.key (e.g. a cert-manager Secret volume); reloaded on change.")
  Path certDir;

  @Option(names = "--namespace", defaultValue = "${env:POD_NAMESPACE}",
      description = "Namespace of the certificate Secret and the Service (default: $POD_NAMESPACE).")
  String namespace;

  @Option(names = "--service", defaultValue = "tidb-operator-webhook",
      description = "Service name the API server calls; the serving certificate names follow it.")
  String service;

  @Option(names = "--secret", defaultValue = "tidb-operator-webhook-tls",
      description = "Secret holding the CA and serving certificate (secret mode).")
  String secret;

  @Option(names = "--secret-mount-dir",
      description = "Secret mode: where the certificate Secret is mounted (tls.crt, tls.key; the volume may"
          + " be empty). A certificate there for the served names and outside its renewal window is served"
          + " at once; the Secret is read right after the server is up.")
  Path secretMountDir;

  @Option(names = "--cluster-domain", defaultValue = ServingNames.DEFAULT_CLUSTER_DOMAIN,
      description = "Cluster DNS domain (default ${DEFAULT-VALUE}).")
  String clusterDomain;

  @Option(names = "--validating-webhook-configuration", split = ",",
      description = "ValidatingWebhookConfiguration(s) whose caBundle is kept up to date (secret mode).")
  List<String> validatingConfigurations = new ArrayList<>();

  @Option(names = "--mutating-webhook-configuration", split = ",",
      description = "MutatingWebhookConfiguration(s) whose caBundle is kept up to date (secret mode).")
  List<String> mutatingConfigurations = new ArrayList<>();

  @Option(names = "--cert-validity-hours", defaultValue = "8760",
      description = "Serving certificate lifetime in hours (default ${DEFAULT-VALUE}).")
  long certValidityHours;

  @Option(names = "--cert-renew-before-hours", defaultValue = "720",
      description = "Renew the serving certificate this many hours before expiry (default ${DEFAULT-VALUE}).")
  long certRenewBeforeHours;

  @Option(names = "--ca-validity-hours", defaultValue = "87600",
      description = "CA lifetime in hours (default ${DEFAULT-VALUE}).")
  long caValidityHours;

  @Option(names = "--ca-renew-before-hours", defaultValue = "8760",
      description = "Rotate the CA this many hours before expiry (default ${DEFAULT-VALUE}).")
  long caRenewBeforeHours;

  @Option(names = "--key-algorithm", defaultValue = "EC_P256",
      description = "Key type for self-managed certificates: ${COMPLETION-CANDIDATES} (default ${DEFAULT-VALUE}).")
  KeyAlgorithm keyAlgorithm;

  @Option(names = "--cert-check-interval-seconds", defaultValue = "60",
      description = "How often the certificate is re-read (and renewed in secret mode) (default ${DEFAULT-VALUE}).")
  long certCheckIntervalSeconds;

  @Option(names = "--max-body-bytes", defaultValue = "4194304",
      description = "Largest AdmissionReview accepted; larger ones get 413 (default ${DEFAULT-VALUE}).")
  int maxBodyBytes;

  @Option(names = "--max-in-flight-bytes", defaultValue = "0",
      description = "Request bodies held at once, by declared length; more get 429 unread"
          + " (default: an eighth of the heap, at most 64 MiB).")
  long maxInFlightBytes;

  @Option(names = "--max-concurrent-reviews", defaultValue = "0",
      description = "Reviews parsed and judged at once; the rest wait up to 2 s, then get 429"
          + " (default: the number of CPUs, at least 2).")
  int maxConcurrentReviews;

  @Option(names = "--max-json-tokens", defaultValue = "100000",
      description = "JSON tokens allowed in one AdmissionReview (default ${DEFAULT-VALUE}).")
  long maxJsonTokens;

  @Option(names = "--idle-timeout-seconds", defaultValue = "10",
      description = "Close a connection that sends nothing this long, or that takes twice as long to"
          + " send a TLS handshake or request head (default ${DEFAULT-VALUE}).")
  long idleTimeoutSeconds;

  @Option(names = "--min-request-bytes-per-second", defaultValue = "4096",
      description = "Cut off a request body that arrives slower than this, judged after its first"
          + " second (default ${DEFAULT-VALUE}).")
  long minRequestBytesPerSecond;

  @Option(names = "--shutdown-delay-seconds", defaultValue = "2",
      description = "On SIGTERM, keep serving this long after /readyz turns 503 (default ${DEFAULT-VALUE}).")
  long shutdownDelaySeconds;

  @Option(names = "--shutdown-timeout-seconds", defaultValue = "20",
      description = "On SIGTERM, wait at most this long for requests in flight (default ${DEFAULT-VALUE}).")
  long shutdownTimeoutSeconds;

  @Option(names = "--log-level", defaultValue = "info",
      description = "error, warn, info, debug or trace (default ${DEFAULT-VALUE}).")
  String logLevel;

  private final CountDownLatch stopped = new CountDownLatch(1);

  public static void main(String[] args) {
    // picocli's default factory looks for Groovy's Closure class once, before parsing: a miss
    // searches every jar of the class path. No flag is a Groovy closure.
    System.setProperty("picocli.disable.closures", "true");
    skipJettyMBeanQuery();
    CommandLine commandLine = new CommandLine(new WebhookMain()).setCaseInsensitiveEnumValuesAllowed(true);
    int exit = commandLine.execute(args);
    if (exit != 0) {
      System.exit(exit);
    }
  }

  /**
   * Jetty's {@code MemoryUtils} asks the platform MBean server whether object references are
   * compressed unless {@value #JETTY_REFERENCES_PER_CACHE_LINE} is set. The question builds that
   * server and registers the JVM's MBeans (about 200 classes and 20-30 ms of a start), and no class
   * of the image reads the answer: Jetty's queues pad by integers per cache line. Set to what it
   * would find with compressed references and a 64-byte line, unless the JVM options set it.
   */
  static void skipJettyMBeanQuery() {
    if (System.getProperty(JETTY_REFERENCES_PER_CACHE_LINE) == null) {
      System.setProperty(JETTY_REFERENCES_PER_CACHE_LINE, "16");
    }
  }

  @Override
  public Integer call() throws Exception {
    // slf4j-simple reads its level once, when the first logger is made: set it before that.
    System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", logLevel.toLowerCase(Locale.ROOT));
    System.setProperty("org.slf4j.simpleLogger.showDateTime", "true");
    System.setProperty("org.slf4j.simpleLogger.dateTimeFormat", "yyyy-MM-dd'T'HH:mm:ss.SSSXXX");
    Logger log = LoggerFactory.getLogger(WebhookMain.class);

    CertificateMode mode = certMode.resolve(certDir != null);
    WebhookApplication.Settings settings;
    try {
      settings = settings(mode);
    } catch (IllegalArgumentException e) {
      System.err.println("tidb-operator-webhook: " + e.getMessage());
      return 2;
    }
    WebhookApplication app = WebhookApplication.start(
        settings, servedRules(), WebhookMain::kubernetesClient);
    log.info("webhook ready startupMillis={}",
        System.currentTimeMillis() - ManagementFactory.getRuntimeMXBean().getStartTime());
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      app.close();
      stopped.countDown();
    }, "webhook-shutdown"));
    stopped.await();
    return 0;
  }

  /**
   * The client secret mode reads and writes the Secret and the webhook configurations with:
   * configured the usual fabric8 way (in a pod, its service account), the API server trusted
   * through the cluster's CA alone.
   */
  static KubernetesClient kubernetesClient() {
    return new KubernetesClientBuilder().withConfig(ClusterCaTrust.only(new ConfigBuilder().build())).build();
  }

  /** The rule sets of every kind the webhook serves. */
  static List<AdmissionRules<?>> servedRules() {
    return List.of(new TidbClusterAdmissionRules(), new TidbInitializerAdmissionRules(),
        new TidbMonitorAdmissionRules(), new DmClusterAdmissionRules(), new BackupAdmissionRules(),
        new RestoreAdmissionRules(), new BackupScheduleAdmissionRules());
  }

  WebhookApplication.Settings settings(CertificateMode mode) {
    ServerLimits defaults = ServerLimits.defaults(maxBodyBytes);
    ServerLimits limits = new ServerLimits(
        maxBodyBytes,
        maxInFlightBytes > 0 ? maxInFlightBytes : defaults.maxInFlightBytes(),
        maxConcurrentReviews > 0 ? maxConcurrentReviews : defaults.maxConcurrentReviews(),
        defaults.reviewWait(),
        maxJsonTokens,
        defaults.maxNestingDepth(),
        Duration.ofSeconds(idleTimeoutSeconds),
        minRequestBytesPerSecond,
        defaults.bodyDeadline(),
        defaults.acceptQueueSize(),
        defaults.maxConnections(),
        defaults.maxThreads());
    WebhookServer.Settings server = new WebhookServer.Settings(bindAddress, port, limits,
        Duration.ofSeconds(shutdownDelaySeconds), Duration.ofSeconds(shutdownTimeoutSeconds));
    WebhookApplication.SecretSettings secretSettings = null;
    if (mode == CertificateMode.SECRET && namespace != null && !namespace.isBlank()) {
      RenewalPolicy policy = new RenewalPolicy(
          Duration.ofHours(caValidityHours), Duration.ofHours(caRenewBeforeHours),
          Duration.ofHours(certValidityHours), Duration.ofHours(certRenewBeforeHours), keyAlgorithm);
      secretSettings = new WebhookApplication.SecretSettings(namespace, secret,
          ServingNames.forService(service, namespace, clusterDomain),
          validatingConfigurations, mutatingConfigurations, policy, service + "-ca", secretMountDir);
    }
    return new WebhookApplication.Settings(
        server, mode, certDir, secretSettings, Duration.ofSeconds(certCheckIntervalSeconds));
  }
}
