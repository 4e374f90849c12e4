package io.tidb.operator.controller.it;

import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.v1alpha1.backup.Backup;
import io.tidb.operator.api.v1alpha1.backup.BackupCondition;
import io.tidb.operator.api.v1alpha1.backup.Restore;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.validation.backup.BackupAdmissionRules;
import io.tidb.operator.api.validation.backup.RestoreAdmissionRules;
import io.tidb.operator.controller.KubeClients;
import io.tidb.operator.controller.backup.BackupController;
import io.tidb.operator.controller.backup.BackupSettings;
import io.tidb.operator.controller.backup.LogCheckpoints;
import io.tidb.operator.controller.backup.RestoreController;
import io.tidb.operator.controller.backup.brstandin.BrStandIn;
import io.tidb.operator.controller.config.ComponentUrls;
import io.tidb.operator.controller.config.ControllerSettings;
import io.tidb.operator.controller.runtime.OperatorRuntime;
import io.tidb.operator.controller.runtime.RuntimeServices;
import io.tidb.operator.controller.runtime.ValidatingReconciler;
import io.tidb.operator.controller.tidbcluster.ClusterApiFactory;
import io.tidb.operator.pdsim.PdSimulatorServer;
import io.tidb.operator.pdsim.SimulatedClusters;
import io.tidb.operator.testsupport.Await;
import io.tidb.operator.testsupport.ClusterAccess;
import io.tidb.operator.testsupport.ProjectCrds;
import io.tidb.operator.testsupport.TestNamespaces;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * A namespace on a real kube-apiserver with the Backup and Restore controllers watching it, a
 * loopback S3 server (S3Proxy), and BR played by {@link BrStandIn} through a launcher script the
 * controller is told is BR's path ({@code --backup-br-path}). No TidbCluster controller runs; the
 * TidbCluster only has to exist. Jobs run through {@link JobAsKubelet} as their own ServiceAccount
 * (a real token from the TokenRequest API), so the Role the controller gives them is what they get.
 */
final class BackupHarness implements AutoCloseable {

  static final Duration TIMEOUT = Duration.ofSeconds(60);
  /** How often the controller reads a running log backup's checkpoint here (upstream: a minute). */
  static final Duration CHECKPOINT_PERIOD = Duration.ofSeconds(1);

  final KubernetesClient admin;
  final String namespace;
  final LoopbackS3 s3;
  final JobAsKubelet kubelet;
  final Path brScript;
  /** The clusters' PD (its embedded etcd, where a log backup's checkpoint is), simulated. */
  final PdSimulatorServer pd;
  private final ClusterAccess access;
  private final Path workDir;
  private OperatorRuntime operator;
  private final UnsettledApplies unsettled = new UnsettledApplies();
  private KubernetesClient operatorClient;
  private final List<Process> started = new ArrayList<>();

  BackupHarness(ClusterAccess access, String prefix) throws Exception {
    this.access = access;
    this.admin = access.newClient();
    ProjectCrds.apply(admin);
    this.namespace = TestNamespaces.createUnique(admin, prefix);
    this.kubelet = new JobAsKubelet(admin);
    this.s3 = new LoopbackS3();
    this.pd = PdSimulatorServer.start(new SimulatedClusters());
    this.workDir = Files.createTempDirectory("backup-it-");
    this.brScript = workDir.resolve("br");
    Files.writeString(brScript, "#!/bin/sh\nexec '" + Path.of(System.getProperty("java.home"), "bin", "java")
        + "' -cp '" + System.getProperty("java.class.path") + "' " + BrStandIn.class.getName() + " \"$@\"\n");
    Files.setPosixFilePermissions(brScript, PosixFilePermissions.fromString("rwx------"));
    startOperator();
  }

  void startOperator() {
    SimpleMeterRegistry registry = unsettled.of(new SimpleMeterRegistry());
    operatorClient = KubeClients.create(Config.fromKubeconfig(access.kubeConfigYaml()), registry, 0, b -> { });
    ControllerSettings settings = new ControllerSettings(
        Set.of(namespace), 2, Duration.ofSeconds(30), Duration.ofSeconds(1), Optional.empty(),
        new InetSocketAddress("127.0.0.1", 0), new ComponentUrls(pd.pdUrlTemplate(), pd.tidbStatusUrlTemplate(),
            pd.pdMemberUrlTemplate(), Duration.ofSeconds(2)),
        "tidb-operator-java/controller:it", "backup-it");
    BackupSettings backup = new BackupSettings(settings.discoveryImage(), "{name}-pd.{namespace}:2379", brScript.toString());
    RuntimeServices services = RuntimeServices.create(operatorClient, registry, settings.identity(), Clock.systemUTC());
    KubernetesClient secrets = operatorClient;
    LogCheckpoints checkpoints = LogCheckpoints.fromPd(new ClusterApiFactory(settings.endpoints(),
        (ns, name) -> Optional.ofNullable(secrets.secrets().inNamespace(ns).withName(name).get()), Clock.systemUTC()),
        CHECKPOINT_PERIOD);
    operator = OperatorRuntime.create(settings, operatorClient, registry, List.<ValidatingReconciler<?, ?>>of(
        BackupController.create(backup, services, new BackupAdmissionRules(), operatorClient, settings.convergingRequeue(),
            checkpoints),
        RestoreController.create(backup, services, new RestoreAdmissionRules(), operatorClient, settings.convergingRequeue())));
    operator.start();
  }

  void stopOperator() {
    if (operator != null) {
      operator.close();
      operatorClient.close();
      operator = null;
    }
  }

  void createCluster(String name) {
    createCluster(name, false);
  }

  /** A TidbCluster named {@code name}, with {@code spec.tlsCluster.enabled: tls}. */
  void createCluster(String name, boolean tls) {
    TidbCluster tc = ApiObjects.parse("""
        apiVersion: pingcap.com/v1alpha1
        kind: TidbCluster
        metadata: {name: %s}
        spec:
          version: v8.5.7
          tlsCluster: {enabled: %s}
          pd: {baseImage: pingcap/pd, replicas: 1, requests: {storage: 1Gi}}
          tikv: {baseImage: pingcap/tikv, replicas: 1, requests: {storage: 1Gi}}
          tidb: {baseImage: pingcap/tidb, replicas: 1, service: {type: ClusterIP}}
        """.formatted(name, tls), TidbCluster.class);
    tc.getMetadata().setNamespace(namespace);
    admin.resource(tc).create();
  }

  void createS3Secret(String name, String accessKey, String secretKey) {
    admin.secrets().inNamespace(namespace).resource(new SecretBuilder()
        .withNewMetadata().withName(name).withNamespace(namespace).endMetadata()
        .addToData("access_key", b64(accessKey)).addToData("secret_key", b64(secretKey)).build()).create();
  }

  Backup createBackup(String yaml) {
    Backup b = ApiObjects.parse(yaml.replace("${S3}", s3.endpoint), Backup.class);
    b.getMetadata().setNamespace(namespace);
    return admin.resource(b).create();
  }

  Restore createRestore(String yaml) {
    Restore r = ApiObjects.parse(yaml.replace("${S3}", s3.endpoint), Restore.class);
    r.getMetadata().setNamespace(namespace);
    return admin.resource(r).create();
  }

  Backup backup(String name) {
    return admin.resources(Backup.class).inNamespace(namespace).withName(name).get();
  }

  Restore restore(String name) {
    return admin.resources(Restore.class).inNamespace(namespace).withName(name).get();
  }

  Backup awaitBackup(String name, String what, Predicate<Backup> done) {
    return Await.until(name + ": " + what, TIMEOUT, () -> backup(name), b -> b != null && b.getStatus() != null && done.test(b));
  }

  Restore awaitRestore(String name, String what, Predicate<Restore> done) {
    return Await.until(name + ": " + what, TIMEOUT, () -> restore(name), r -> r != null && r.getStatus() != null && done.test(r));
  }

  /**
   * Every phase the Backup {@code name} shows, in order, each once (a watch delivers every
   * change); started before the Backup exists, so none is missed.
   */
  Phases watchPhases(String name) {
    Phases phases = new Phases();
    phases.watch = admin.resources(Backup.class).inNamespace(namespace).withName(name).watch(new Watcher<Backup>() {
      @Override
      public void eventReceived(Action action, Backup b) {
        phases.saw(b.getStatus() == null ? null : b.getStatus().getPhase());
      }

      @Override
      public void onClose(WatcherException cause) {
      }
    });
    return phases;
  }

  /** The phases a watch saw. */
  static final class Phases implements AutoCloseable {
    private final List<String> seen = new ArrayList<>();
    private Watch watch;

    synchronized void saw(String phase) {
      if (phase != null && (seen.isEmpty() || !phase.equals(seen.get(seen.size() - 1)))) {
        seen.add(phase);
      }
    }

    synchronized List<String> seen() {
      return List.copyOf(seen);
    }

    /**
     * The phases seen once the watch has delivered {@code last}: a test's GET may see a phase
     * before this watch's event of it arrives (10 s at most, then the phases seen so far).
     */
    List<String> seenThrough(String last) {
      long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
      List<String> now = seen();
      while (!now.contains(last) && System.nanoTime() < deadline) {
        try {
          Thread.sleep(20);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          break;
        }
        now = seen();
      }
      return now;
    }

    @Override
    public void close() {
      watch.close();
    }
  }

  /**
   * The objects of a BR backup under {@code prefix} as the clean-up tests plant them: the lock
   * file and {@code n - 1} SST files.
   */
  static List<String> backupObjects(String prefix, int n) {
    List<String> keys = new java.util.ArrayList<>();
    keys.add(prefix + "/backup.lock");
    for (int i = 1; i < n; i++) {
      keys.add(prefix + "/1/" + i + "_100" + i + "_default.sst");
    }
    return keys;
  }

  /**
   * Creates a Backup of cluster {@code basic} with {@code cleanPolicy: OnFailure} and the given
   * storage, plays its BR Job failing halfway, and waits for phase Failed.
   */
  void failedBackup(String name, String storageYaml) throws Exception {
    createBackup("""
        apiVersion: pingcap.com/v1alpha1
        kind: Backup
        metadata: {name: %s}
        spec:
          cleanPolicy: OnFailure
          br: {cluster: basic}
          %s
        """.formatted(name, storageYaml));
    Job backup = awaitJob("backup-" + name);
    kubelet.report(backup, new JobAsKubelet.Run(1, "[ERROR] [backup.go:54] \"failed to backup\" "
        + "[error=\"context deadline exceeded\"]"), java.time.Instant.now());
    awaitBackup(name, "Failed", b -> "Failed".equals(b.getStatus().getPhase()));
  }

  Job awaitJob(String name) {
    return Await.until("Job " + name, TIMEOUT, () -> job(name), j -> j != null);
  }

  Job job(String name) {
    return admin.batch().v1().jobs().inNamespace(namespace).withName(name).get();
  }

  static Optional<BackupCondition> condition(Backup b, String type) {
    return b.getStatus().getConditions() == null ? Optional.empty()
        : b.getStatus().getConditions().stream().filter(c -> type.equals(c.getType())).findFirst();
  }

  /** What the kubelet gives the Job's pod: the API server's address and its ServiceAccount's token. */
  JobAsKubelet.Kubelet kubeletFor(Job job) {
    String sa = job.getSpec().getTemplate().getSpec().getServiceAccountName();
    String token = admin.serviceAccounts().inNamespace(namespace).withName(sa).tokenRequest(new TokenRequestBuilder()
        .withNewSpec().withExpirationSeconds(3600L).endSpec().build()).getStatus().getToken();
    Config config = Config.fromKubeconfig(access.kubeConfigYaml());
    URI server = URI.create(config.getMasterUrl());
    try {
      Path tokenFile = workDir.resolve(sa + ".token");
      Files.writeString(tokenFile, token);
      Path ca = workDir.resolve("ca.crt");
      Files.write(ca, config.getCaCertData() != null
          ? Base64.getDecoder().decode(config.getCaCertData())
          : Files.readAllBytes(Path.of(config.getCaCertFile())));
      return new JobAsKubelet.Kubelet(
          Map.of("KUBERNETES_SERVICE_HOST", server.getHost(), "KUBERNETES_SERVICE_PORT", Integer.toString(server.getPort())),
          List.of("-Dkubernetes.auth.tryKubeConfig=false", "-Dkubernetes.auth.serviceAccount.token=" + tokenFile,
              "-Dkubernetes.certs.ca.file=" + ca));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Runs the Job's container as its pod would, and reports as the kubelet and the Job controller do. */
  JobAsKubelet.Run run(Job job) throws IOException, InterruptedException {
    return kubelet.runAndReport(job, kubeletFor(job));
  }

  /** Starts the Job's container and leaves it running. */
  Process start(Job job) throws IOException {
    Process p = kubelet.process(job, kubeletFor(job)).redirectOutput(workDir.resolve(job.getMetadata().getName() + ".log").toFile()).start();
    started.add(p);
    return p;
  }

  String output(Job job) throws IOException {
    return Files.readString(workDir.resolve(job.getMetadata().getName() + ".log"), StandardCharsets.UTF_8);
  }

  private static String b64(String s) {
    return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8));
  }

  @Override
  public void close() throws Exception {
    started.forEach(Process::destroyForcibly);
    stopOperator();
    s3.close();
    pd.close();
    admin.namespaces().withName(namespace).delete();
    admin.close();
    unsettled.assertNone();
  }
}
