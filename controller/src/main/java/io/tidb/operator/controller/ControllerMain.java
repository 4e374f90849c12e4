package io.tidb.operator.controller;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.tidb.operator.api.GoDuration;
import io.tidb.operator.api.validation.backup.BackupAdmissionRules;
import io.tidb.operator.api.validation.backup.BackupScheduleAdmissionRules;
import io.tidb.operator.api.validation.backup.RestoreAdmissionRules;
import io.tidb.operator.api.validation.cluster.TidbClusterAdmissionRules;
import io.tidb.operator.api.validation.monitor.TidbMonitorAdmissionRules;
import io.tidb.operator.api.validation.initializer.TidbInitializerAdmissionRules;
import io.tidb.operator.controller.backup.BackupController;
import io.tidb.operator.controller.backup.BackupScheduleController;
import io.tidb.operator.controller.backup.BackupSettings;
import io.tidb.operator.controller.backup.LogCheckpoints;
import io.tidb.operator.controller.backup.RestoreController;
import io.tidb.operator.controller.backup.manager.BackupManagerMain;
import io.tidb.operator.controller.config.ComponentUrls;
import io.tidb.operator.controller.dmcluster.DmClusterController;
import io.tidb.operator.controller.dmcluster.DmFailoverSettings;
import io.tidb.operator.controller.dmcluster.DmMasterEndpoints;
import io.tidb.operator.api.validation.dm.DmClusterAdmissionRules;
import io.tidb.operator.controller.config.ControllerSettings;
import io.tidb.operator.controller.config.FailoverSettings;
import io.tidb.operator.controller.http.OperatorHttpServer;
import io.tidb.operator.controller.monitor.TidbMonitorController;
import io.tidb.operator.controller.runtime.OperatorRuntime;
import io.tidb.operator.controller.runtime.RuntimeServices;
import io.tidb.operator.controller.runtime.ValidatingReconciler;
import io.tidb.operator.controller.tidbcluster.ClusterApiFactory;
import io.tidb.operator.controller.tidbcluster.TidbClusterController;
import io.tidb.operator.controller.initializer.InitializerSettings;
import io.tidb.operator.controller.initializer.TidbInitializerController;
import io.tidb.operator.controller.initializer.sql.InitializerMain;
import io.tidb.operator.controller.tidbcluster.discovery.DiscoveryMain;
import io.tidb.operator.controller.tidbcluster.discovery.DiscoveryObjects;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * The controller image's entry point. Without a subcommand it runs the operator; {@code
 * discovery} runs the per-cluster discovery service instead (one image, two modes).
 *
 * <p>Every flag can also be set by the environment variable named in its description. The other
 * modes are picocli subcommands, added only when named ({@link #commandLine}).
 */
@Command(
    name = "tidb-operator-controller",
    mixinStandardHelpOptions = true,
    description =
        "Runs the operator's controllers (default), the discovery service, a"
            + " TidbInitializer's initialization, or a Backup's or Restore's backup-manager.")
public final class ControllerMain implements Callable<Integer> {

  @Option(
      names = "--watch-namespaces",
      split = ",",
      defaultValue = "${env:WATCH_NAMESPACES:-}",
      description = "Namespaces to watch, comma-separated; empty watches all. Env WATCH_NAMESPACES.")
  List<String> watchNamespaces = List.of();

  @Option(
      names = "--workers",
      defaultValue = "${env:WORKERS:-5}",
      description = "Concurrent reconciles (default ${DEFAULT-VALUE}). Env WORKERS.")
  int workers;

  @Option(
      names = "--kube-api-qps",
      defaultValue = "${env:KUBE_API_QPS:-100}",
      description =
          "Kubernetes API requests per second the operator may send, watches not counted; bursts"
              + " of up to one second's worth pass after a quiet spell; 0 for no limit (default"
              + " ${DEFAULT-VALUE}). Env KUBE_API_QPS.")
  double kubeApiQps;

  @Option(
      names = "--resync-seconds",
      defaultValue = "${env:RESYNC_SECONDS:-30}",
      description =
          "Every TidbCluster is reconciled at least this often, which keeps status following PD"
              + " (default ${DEFAULT-VALUE}). Env RESYNC_SECONDS.")
  int resyncSeconds;

  @Option(
      names = "--converging-requeue-seconds",
      defaultValue = "${env:CONVERGING_REQUEUE_SECONDS:-5}",
      description =
          "How soon a reconcile that waits on a prerequisite runs again (default"
              + " ${DEFAULT-VALUE}). Env CONVERGING_REQUEUE_SECONDS.")
  int convergingRequeueSeconds;

  @Option(
      names = "--reconcile-spacing-millis",
      defaultValue = "${env:RECONCILE_SPACING_MILLIS:-1000}",
      description =
          "The shortest time between two reconciles of one resource; events that arrive sooner"
              + " are handled together by the next one. 0 reconciles on every event (default"
              + " ${DEFAULT-VALUE}). Env RECONCILE_SPACING_MILLIS.")
  int reconcileSpacingMillis;

  @Option(
      names = "--leader-election",
      defaultValue = "${env:LEADER_ELECTION:-false}",
      description = "Elect a leader through a Lease before reconciling. Env LEADER_ELECTION.")
  boolean leaderElection;

  @Option(
      names = "--leader-election-namespace",
      defaultValue = "${env:POD_NAMESPACE:-}",
      description = "Namespace of the Lease (default: env POD_NAMESPACE).")
  String leaderElectionNamespace;

  @Option(
      names = "--leader-election-lease",
      defaultValue = "${env:LEADER_ELECTION_LEASE:-tidb-controller-manager}",
      description = "Name of the Lease (default ${DEFAULT-VALUE}). Env LEADER_ELECTION_LEASE.")
  String leaderElectionLease;

  @Option(
      names = "--identity",
      defaultValue = "${env:POD_NAME:-}",
      description = "This replica's name (default: env POD_NAME, else the host name).")
  String identity;

  @Option(
      names = "--bind",
      defaultValue = "${env:BIND_ADDRESS:-0.0.0.0}",
      description = "Address of the metrics and probe server (default ${DEFAULT-VALUE}).")
  String bindAddress;

  @Option(
      names = "--kubeconfig",
      description =
          "Kubeconfig file to reach the API server (default: env KUBECONFIG, ~/.kube/config, or"
              + " the in-cluster service account).")
  Path kubeconfig;

  @Option(
      names = "--port",
      defaultValue = "${env:PORT:-8080}",
      description =
          "Port of /metrics, /healthz and /readyz (default ${DEFAULT-VALUE}; 0 picks one). Env"
              + " PORT.")
  int port;

  @Option(
      names = "--discovery-image",
      defaultValue = "${env:DISCOVERY_IMAGE:-tidb-operator-java/controller:latest}",
      description =
          "Image of each cluster's discovery Deployment: this operator's image (default"
              + " ${DEFAULT-VALUE}). Env DISCOVERY_IMAGE.")
  String discoveryImage;

  @Option(
      names = "--pd-url-template",
      defaultValue = "${env:PD_URL_TEMPLATE:-" + ComponentUrls.DEFAULT_PD_URL_TEMPLATE + "}",
      description =
          "Base URL of a cluster's PD API; placeholders {name}, {namespace}, {svc} (default"
              + " ${DEFAULT-VALUE}). Env PD_URL_TEMPLATE.")
  String pdUrlTemplate;

  @Option(
      names = "--tidb-status-url-template",
      defaultValue =
          "${env:TIDB_STATUS_URL_TEMPLATE:-"
              + ComponentUrls.DEFAULT_TIDB_STATUS_URL_TEMPLATE
              + "}",
      description =
          "Base URL of one TiDB's status port; placeholders {name}, {namespace}, {svc}, {pod}"
              + " (default ${DEFAULT-VALUE}). Env TIDB_STATUS_URL_TEMPLATE.")
  String tidbStatusUrlTemplate;

  @Option(
      names = "--pd-member-url-template",
      defaultValue =
          "${env:PD_MEMBER_URL_TEMPLATE:-"
              + ComponentUrls.DEFAULT_PD_MEMBER_URL_TEMPLATE
              + "}",
      description =
          "Base URL of one PD member's own API, asked whether the member is ready during an"
              + " upgrade; placeholders {name}, {namespace}, {svc}, {domain}, {member} (default"
              + " ${DEFAULT-VALUE}). Env PD_MEMBER_URL_TEMPLATE.")
  String pdMemberUrlTemplate;

  @Option(
      names = "--dm-master-url-template",
      defaultValue =
          "${env:DM_MASTER_URL_TEMPLATE:-" + DmMasterEndpoints.DEFAULT_SERVICE_TEMPLATE + "}",
      description =
          "Base URL of a DMCluster's dm-master API; placeholders {name}, {namespace} (default"
              + " ${DEFAULT-VALUE}). Env DM_MASTER_URL_TEMPLATE.")
  String dmMasterUrlTemplate;

  @Option(
      names = "--dm-master-member-url-template",
      defaultValue =
          "${env:DM_MASTER_MEMBER_URL_TEMPLATE:-" + DmMasterEndpoints.DEFAULT_MEMBER_TEMPLATE + "}",
      description =
          "Base URL of one dm-master member (leader eviction); placeholders {name}, {namespace},"
              + " {member} (default ${DEFAULT-VALUE}). Env DM_MASTER_MEMBER_URL_TEMPLATE.")
  String dmMasterMemberUrlTemplate;

  @Option(
      names = "--dm-master-failover-period",
      defaultValue = "${env:DM_MASTER_FAILOVER_PERIOD:-5m}",
      description =
          "How long a dm-master member must be unhealthy before it is failed over (default"
              + " ${DEFAULT-VALUE}). Env DM_MASTER_FAILOVER_PERIOD.")
  String dmMasterFailoverPeriod;

  @Option(
      names = "--dm-worker-failover-period",
      defaultValue = "${env:DM_WORKER_FAILOVER_PERIOD:-5m}",
      description =
          "How long a dm-worker must be offline before a replacement is added (default"
              + " ${DEFAULT-VALUE}). Env DM_WORKER_FAILOVER_PERIOD.")
  String dmWorkerFailoverPeriod;

  @Option(
      names = "--ticdc-url-template",
      defaultValue =
          "${env:TICDC_URL_TEMPLATE:-"
              + ComponentUrls.DEFAULT_TICDC_URL_TEMPLATE
              + "}",
      description =
          "Base URL of one TiCDC server's API (status, captures, drain, owner resign);"
              + " placeholders {name}, {namespace}, {svc}, {pod} (default ${DEFAULT-VALUE})."
              + " Env TICDC_URL_TEMPLATE.")
  String ticdcUrlTemplate;

  @Option(
      names = "--tiproxy-url-template",
      defaultValue =
          "${env:TIPROXY_URL_TEMPLATE:-"
              + ComponentUrls.DEFAULT_TIPROXY_URL_TEMPLATE
              + "}",
      description =
          "Base URL of one TiProxy server's API (health); placeholders {name}, {namespace},"
              + " {svc}, {pod} (default ${DEFAULT-VALUE}). Env TIPROXY_URL_TEMPLATE.")
  String tiproxyUrlTemplate;

  @Option(
      names = "--pump-url-template",
      defaultValue =
          "${env:PUMP_URL_TEMPLATE:-"
              + ComponentUrls.DEFAULT_PUMP_URL_TEMPLATE
              + "}",
      description =
          "Base URL of one Pump server (offline request); placeholders {name}, {namespace},"
              + " {svc}, {pod} (default ${DEFAULT-VALUE}). Env PUMP_URL_TEMPLATE.")
  String pumpUrlTemplate;

  @Option(
      names = "--tiflash-url-template",
      defaultValue =
          "${env:TIFLASH_URL_TEMPLATE:-"
              + ComponentUrls.DEFAULT_TIFLASH_URL_TEMPLATE
              + "}",
      description =
          "Base URL of one TiFlash proxy status server (store status during upgrades);"
              + " placeholders {name}, {namespace}, {svc}, {pod} (default ${DEFAULT-VALUE})."
              + " Env TIFLASH_URL_TEMPLATE.")
  String tiflashUrlTemplate;

  @Option(
      names = "--tidb-address-template",
      defaultValue =
          "${env:TIDB_ADDRESS_TEMPLATE:-" + InitializerSettings.DEFAULT_TIDB_ADDRESS_TEMPLATE + "}",
      description =
          "host:port where a TidbInitializer's Job, and the operator for"
              + " spec.tidb.initializer.createPassword, reach the cluster's TiDB (MySQL protocol);"
              + " placeholders {name}, {namespace}, {svc}, {port} (default ${DEFAULT-VALUE}). Env"
              + " TIDB_ADDRESS_TEMPLATE.")
  String tidbAddressTemplate;

  @Option(
      names = "--backup-pd-address-template",
      defaultValue =
          "${env:BACKUP_PD_ADDRESS_TEMPLATE:-" + BackupSettings.DEFAULT_PD_ADDRESS_TEMPLATE + "}",
      description =
          "host:port where BR in a Backup's or Restore's Job reaches the cluster's PD;"
              + " placeholders {name}, {namespace}, {svc} (default ${DEFAULT-VALUE}). Env"
              + " BACKUP_PD_ADDRESS_TEMPLATE.")
  String backupPdAddressTemplate;

  @Option(
      names = "--backup-br-path",
      defaultValue = "${env:BACKUP_BR_PATH:-" + BackupSettings.DEFAULT_BR_PATH + "}",
      description =
          "Where a Backup's or Restore's Job runs br, copied there from the tool image by its"
              + " init container (default ${DEFAULT-VALUE}). Env BACKUP_BR_PATH.")
  String backupBrPath;

  @Option(
      names = "--pd-timeout-seconds",
      defaultValue = "${env:PD_TIMEOUT_SECONDS:-5}",
      description = "Timeout of each PD and TiDB request (default ${DEFAULT-VALUE}).")
  int pdTimeoutSeconds;

  @Option(
      names = "--auto-failover",
      defaultValue = "${env:AUTO_FAILOVER:-true}",
      arity = "0..1",
      description =
          "Replace PD members, TiKV stores and TiDB servers that stay failed longer than their"
              + " failover period (default ${DEFAULT-VALUE}). Env AUTO_FAILOVER.")
  boolean autoFailover;

  @Option(
      names = "--pd-failover-period",
      defaultValue = "${env:PD_FAILOVER_PERIOD:-5m}",
      description =
          "How long a PD member must be unhealthy before it is failed over, a Go duration"
              + " (default ${DEFAULT-VALUE}). Env PD_FAILOVER_PERIOD.")
  String pdFailoverPeriod;

  @Option(
      names = "--tikv-failover-period",
      defaultValue = "${env:TIKV_FAILOVER_PERIOD:-5m}",
      description =
          "How long a TiKV store must be Down before it is failed over, a Go duration"
              + " (default ${DEFAULT-VALUE}). Env TIKV_FAILOVER_PERIOD.")
  String tikvFailoverPeriod;

  @Option(
      names = "--tidb-failover-period",
      defaultValue = "${env:TIDB_FAILOVER_PERIOD:-5m}",
      description =
          "How long a TiDB server must be unhealthy before it is failed over, a Go duration"
              + " (default ${DEFAULT-VALUE}). Env TIDB_FAILOVER_PERIOD.")
  String tidbFailoverPeriod;

  @Option(
      names = "--tiflash-failover-period",
      defaultValue = "${env:TIFLASH_FAILOVER_PERIOD:-5m}",
      description =
          "How long a TiFlash store must be Down before it is failed over, a Go duration"
              + " (default ${DEFAULT-VALUE}). Env TIFLASH_FAILOVER_PERIOD.")
  String tiflashFailoverPeriod;

  @Option(
      names = "--log-level",
      defaultValue = "${env:LOG_LEVEL:-info}",
      description = "error, warn, info, debug or trace (default ${DEFAULT-VALUE}). Env LOG_LEVEL.")
  String logLevel;

  /**
   * The image's other modes, by subcommand name. picocli reflects over every option of a
   * subcommand when it is added, its own classes cannot go into the class-data sharing archive
   * (their class file version is too old), and the operator's start needs none of them.
   */
  static final Map<String, Class<?>> MODES = modes();

  private static Map<String, Class<?>> modes() {
    Map<String, Class<?>> modes = new LinkedHashMap<>();
    modes.put(DiscoveryObjects.MODE, DiscoveryMain.class);
    modes.put(InitializerMain.MODE, InitializerMain.class);
    modes.put(BackupManagerMain.MODE, BackupManagerMain.class);
    modes.put(ControllerClassDataTraining.MODE, ControllerClassDataTraining.class);
    return Collections.unmodifiableMap(modes);
  }

  public static void main(String[] args) {
    // picocli's default factory looks for Groovy's Closure class once, before parsing: a miss
    // searches every jar of the class path (over 200 here). No flag is a Groovy closure.
    System.setProperty("picocli.disable.closures", "true");
    ControllerLogging.configure(ControllerLogging.level(args, System.getenv("LOG_LEVEL")));
    System.exit(commandLine(args).execute(args));
  }

  /** The command line that runs {@code args}: the operator, with the modes {@link #modesFor} names. */
  public static CommandLine commandLine(String... args) {
    CommandLine cli = new CommandLine(new ControllerMain());
    for (String mode : modesFor(args)) {
      cli.addSubcommand(mode, MODES.get(mode));
    }
    return cli;
  }

  /**
   * The modes {@code args} need: every mode named among them, or all when help or the version is
   * asked for (the usage lists them); none for the operator itself.
   */
  static List<String> modesFor(String... args) {
    List<String> given = List.of(args);
    if (given.stream().anyMatch(a -> Set.of("-h", "--help", "-V", "--version").contains(a))) {
      return List.copyOf(MODES.keySet());
    }
    return MODES.keySet().stream().filter(given::contains).toList();
  }

  /** The settings these flags describe; throws {@link IllegalArgumentException} naming the flag. */
  ControllerSettings settings() {
    positive("--workers", workers);
    if (!java.util.Set.of("error", "warn", "info", "debug", "trace").contains(logLevel.toLowerCase(Locale.ROOT))) {
      throw new IllegalArgumentException("--log-level: Unsupported value: \"" + logLevel
          + "\": supported values: \"error\", \"warn\", \"info\", \"debug\", \"trace\"");
    }
    if (!(kubeApiQps >= 0) || Double.isInfinite(kubeApiQps)) {
      throw new IllegalArgumentException(
          "--kube-api-qps: Invalid value: " + kubeApiQps + ": must be 0 (no limit) or a positive number");
    }
    positive("--resync-seconds", resyncSeconds);
    positive("--converging-requeue-seconds", convergingRequeueSeconds);
    if (reconcileSpacingMillis < 0) {
      throw new IllegalArgumentException(
          "--reconcile-spacing-millis: Invalid value: " + reconcileSpacingMillis
              + ": must be 0 (no spacing) or a positive number of milliseconds");
    }
    positive("--pd-timeout-seconds", pdTimeoutSeconds);
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException(
          "--port: Invalid value: " + port + ": must be between 0 and 65535");
    }
    if (discoveryImage == null || discoveryImage.isBlank()) {
      throw new IllegalArgumentException(
          "--discovery-image: Required value: the image of the discovery Deployment");
    }
    Optional<ControllerSettings.LeaderElection> election = Optional.empty();
    if (leaderElection) {
      if (leaderElectionNamespace == null || leaderElectionNamespace.isBlank()) {
        throw new IllegalArgumentException(
            "--leader-election-namespace: Required value: set it, or env POD_NAMESPACE, when"
                + " --leader-election is on");
      }
      election =
          Optional.of(
              new ControllerSettings.LeaderElection(leaderElectionLease, leaderElectionNamespace));
    }
    Set<String> namespaces = new LinkedHashSet<>();
    for (String ns : watchNamespaces) {
      if (!ns.isBlank()) {
        namespaces.add(ns.trim());
      }
    }
    return new ControllerSettings(
        namespaces,
        workers,
        Duration.ofSeconds(resyncSeconds),
        Duration.ofSeconds(convergingRequeueSeconds),
        election,
        new InetSocketAddress(bindAddress, port),
        new ComponentUrls(
            pdUrlTemplate,
            tidbStatusUrlTemplate,
            pdMemberUrlTemplate,
            ticdcUrlTemplate,
            tiproxyUrlTemplate,
            pumpUrlTemplate,
            tiflashUrlTemplate,
            Duration.ofSeconds(pdTimeoutSeconds)),
        discoveryImage,
        identity == null || identity.isBlank() ? hostName() : identity,
        new FailoverSettings(
            autoFailover,
            period("--pd-failover-period", pdFailoverPeriod),
            period("--tikv-failover-period", tikvFailoverPeriod),
            period("--tidb-failover-period", tidbFailoverPeriod),
            period("--tiflash-failover-period", tiflashFailoverPeriod)),
        Duration.ofMillis(reconcileSpacingMillis));
  }

  private static Duration period(String flag, String value) {
    Duration d;
    try {
      d = GoDuration.parse(value == null ? "" : value.trim());
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(
          flag + ": Invalid value: \"" + value + "\": must be a duration such as 5m or 90s");
    }
    if (d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException(
          flag + ": Invalid value: \"" + value + "\": must be greater than 0");
    }
    return d;
  }

  @Override
  public Integer call() throws Exception {
    // The level itself was set from the same flag by main, before any logger existed.
    Plan plan;
    try {
      plan = plan();
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      return CommandLine.ExitCode.USAGE;
    }
    Running running = prepare(plan);
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  LoggerFactory.getLogger(ControllerMain.class).info("shutting down");
                  running.close();
                  stopped.countDown();
                },
                "shutdown"));
    running.operator().start();
    stopped.await();
    return CommandLine.ExitCode.OK;
  }

  /**
   * The running operator: its controllers, its metrics and probe server, and its Kubernetes
   * client. {@link #close()} stops them in that order.
   */
  record Running(OperatorRuntime operator, OperatorHttpServer http, KubernetesClient client)
      implements AutoCloseable {

    @Override
    public void close() {
      operator.close();
      http.close();
      client.close();
    }
  }

  /** Every setting the controllers are built from. */
  record Plan(
      ControllerSettings settings,
      InitializerSettings initializer,
      DmMasterEndpoints dm,
      DmFailoverSettings dmFailover,
      BackupSettings backup) {}

  /** The settings these flags describe; throws {@link IllegalArgumentException} naming the flag. */
  Plan plan() {
    ControllerSettings settings = settings();
    return new Plan(
        settings,
        new InitializerSettings(settings.discoveryImage(), tidbAddressTemplate),
        new DmMasterEndpoints(dmMasterUrlTemplate, dmMasterMemberUrlTemplate, settings.endpoints().timeout()),
        new DmFailoverSettings(settings.failover().auto(),
            period("--dm-master-failover-period", dmMasterFailoverPeriod),
            period("--dm-worker-failover-period", dmWorkerFailoverPeriod)),
        new BackupSettings(settings.discoveryImage(), backupPdAddressTemplate, backupBrPath));
  }

  /**
   * The operator {@code plan} describes, its probe server already serving (the process's work,
   * and {@code train-class-data}'s); {@code operator().start()} starts the controllers.
   */
  Running prepare(Plan plan) throws IOException {
    ControllerSettings settings = plan.settings();
    Logger log = LoggerFactory.getLogger(ControllerMain.class);
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    KubernetesClient client = KubeClients.create(Optional.ofNullable(kubeconfig), registry, kubeApiQps);
    // The client's connection opens while the JVM's metrics are bound; the controllers, whose
    // construction already sends requests (the volume cache's access review), come once it is open.
    CompletableFuture<Void> connected = KubeClients.connect(client);
    new JvmMemoryMetrics().bindTo(registry);
    new JvmGcMetrics().bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    KubeClients.awaitConnection(connected);
    OperatorRuntime operator =
        OperatorRuntime.create(
            settings, client, registry,
            controllers(settings, plan.initializer(), plan.dm(), plan.dmFailover(), plan.backup(),
                client, registry));
    OperatorHttpServer http =
        OperatorHttpServer.start(settings.httpAddress(), registry, operator::live, operator::ready);
    log.info(
        "starting namespaces={} workers={} resync={} leaderElection={} http={}",
        settings.watchAllNamespaces() ? "all" : settings.namespaces(),
        settings.workers(),
        settings.resync(),
        settings.leaderElection().map(le -> le.leaseNamespace() + "/" + le.leaseName()).orElse("off"),
        settings.httpAddress().getHostString() + ":" + http.port());
    return new Running(operator, http, client);
  }

  private static void positive(String flag, int value) {
    if (value <= 0) {
      throw new IllegalArgumentException(
          flag + ": Invalid value: " + value + ": must be greater than 0");
    }
  }

  private static String hostName() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      return "tidb-operator-controller";
    }
  }

  /**
   * Every controller this process runs, on shared services. A new controller is one more line
   * here (and its package).
   */
  public static List<ValidatingReconciler<?, ?>> controllers(
      ControllerSettings settings, KubernetesClient client, MeterRegistry registry) {
    return controllers(
        settings,
        new InitializerSettings(
            settings.discoveryImage(), InitializerSettings.DEFAULT_TIDB_ADDRESS_TEMPLATE),
        client,
        registry);
  }

  /** As above, with how TidbInitializer Jobs reach TiDB. */
  public static List<ValidatingReconciler<?, ?>> controllers(
      ControllerSettings settings,
      InitializerSettings initializer,
      KubernetesClient client,
      MeterRegistry registry) {
    return controllers(settings, initializer, DmMasterEndpoints.defaults(),
        new DmFailoverSettings(settings.failover().auto(), DmFailoverSettings.DEFAULTS.masterPeriod(),
            DmFailoverSettings.DEFAULTS.workerPeriod()),
        new BackupSettings(
            settings.discoveryImage(),
            BackupSettings.DEFAULT_PD_ADDRESS_TEMPLATE,
            BackupSettings.DEFAULT_BR_PATH),
        client, registry);
  }

  /**
   * As above, with how the DMCluster controller reaches dm-master and how Backup Jobs run BR.
   */
  public static List<ValidatingReconciler<?, ?>> controllers(
      ControllerSettings settings,
      InitializerSettings initializer,
      DmMasterEndpoints dm,
      DmFailoverSettings dmFailover,
      BackupSettings backup,
      KubernetesClient client,
      MeterRegistry registry) {
    RuntimeServices services =
        RuntimeServices.create(client, registry, settings.identity(), Clock.systemUTC());
    return List.of(
        TidbClusterController.create(
            settings, services, new TidbClusterAdmissionRules(), client, initializer::tidbAddress),
        TidbInitializerController.create(
            initializer,
            services,
            new TidbInitializerAdmissionRules(),
            client,
            settings.convergingRequeue()),
        TidbMonitorController.create(
            settings, services, new TidbMonitorAdmissionRules(), client),
        DmClusterController.create(
            dm, dmFailover, settings.discoveryImage(), services,
            new DmClusterAdmissionRules(), client, settings.convergingRequeue()),
        BackupController.create(
            backup, services, new BackupAdmissionRules(), client, settings.convergingRequeue(),
            LogCheckpoints.fromPd(
                new ClusterApiFactory(
                    settings.endpoints(),
                    (namespace, name) ->
                        Optional.ofNullable(
                            client.secrets().inNamespace(namespace).withName(name).get()),
                    Clock.systemUTC()),
                LogCheckpoints.DEFAULT_PERIOD)),
        RestoreController.create(
            backup, services, new RestoreAdmissionRules(), client, settings.convergingRequeue()),
        BackupScheduleController.create(
            services, new BackupScheduleAdmissionRules(), client, settings.convergingRequeue()));
  }
}
