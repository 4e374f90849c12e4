package io.tidb.operator.controller.it;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.v1alpha1.backup.Backup;
import io.tidb.operator.api.v1alpha1.backup.BackupSchedule;
import io.tidb.operator.api.v1alpha1.backup.BackupStatus;
import io.tidb.operator.api.validation.backup.BackupScheduleAdmissionRules;
import io.tidb.operator.controller.KubeClients;
import io.tidb.operator.controller.backup.BackupScheduleController;
import io.tidb.operator.controller.config.ComponentUrls;
import io.tidb.operator.controller.config.ControllerSettings;
import io.tidb.operator.controller.runtime.OperatorRuntime;
import io.tidb.operator.controller.runtime.RuntimeServices;
import io.tidb.operator.controller.runtime.ValidatingReconciler;
import io.tidb.operator.testsupport.ClusterAccess;
import io.tidb.operator.testsupport.ProjectCrds;
import io.tidb.operator.testsupport.TestNamespaces;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A namespace on a real kube-apiserver with only the BackupSchedule controller watching it, on a
 * clock the test moves ({@link #now}); the test plays the Backup controller by writing the
 * Backups' phases. Shared by the schedule ITs.
 */
final class ScheduleHarness implements AutoCloseable {

  /** The operator's clock: starts at the current minute and moves only when the test says. */
  final AtomicReference<Instant> now = new AtomicReference<>();
  final KubernetesClient admin;
  final String ns;
  private final KubernetesClient operatorClient;
  private final OperatorRuntime operator;
  private final UnsettledApplies unsettled = new UnsettledApplies();

  ScheduleHarness(ClusterAccess access, String namespacePrefix, String identity) {
    admin = access.newClient();
    ProjectCrds.apply(admin);
    ns = TestNamespaces.createUnique(admin, namespacePrefix);
    now.set(Instant.now().atZone(ZoneOffset.UTC).withSecond(0).withNano(0).toInstant());
    Clock clock = new Clock() {
      @Override
      public ZoneId getZone() {
        return ZoneOffset.UTC;
      }

      @Override
      public Clock withZone(ZoneId zone) {
        return this;
      }

      @Override
      public Instant instant() {
        return now.get();
      }
    };
    SimpleMeterRegistry registry = unsettled.of(new SimpleMeterRegistry());
    operatorClient = KubeClients.create(Config.fromKubeconfig(access.kubeConfigYaml()), registry, 0, b -> { });
    ControllerSettings settings = new ControllerSettings(Set.of(ns), 2, Duration.ofSeconds(30), Duration.ofMillis(300),
        Optional.empty(), new InetSocketAddress("127.0.0.1", 0), ComponentUrls.defaults(), "tidb-operator-java/controller:it",
        identity);
    RuntimeServices services = RuntimeServices.create(operatorClient, registry, settings.identity(), clock);
    operator = OperatorRuntime.create(settings, operatorClient, registry, List.<ValidatingReconciler<?, ?>>of(
        BackupScheduleController.create(services, new BackupScheduleAdmissionRules(), operatorClient,
            settings.convergingRequeue())));
    operator.start();
  }

  List<Backup> backups(String schedule) {
    return admin.resources(Backup.class).inNamespace(ns).withLabel("tidb.pingcap.com/backup-schedule", schedule)
        .list().getItems().stream().filter(b -> b.getMetadata().getDeletionTimestamp() == null)
        .sorted(java.util.Comparator.comparing(b -> b.getMetadata().getName())).toList();
  }

  List<String> names(String schedule) {
    return backups(schedule).stream().map(b -> b.getMetadata().getName()).toList();
  }

  void setPhase(String name, String phase) {
    Backup b = admin.resources(Backup.class).inNamespace(ns).withName(name).get();
    b.setStatus(new BackupStatus());
    b.getStatus().setPhase(phase);
    admin.resources(Backup.class).inNamespace(ns).resource(b).updateStatus();
  }

  /** Writes a Backup's status as its controller and the log backup's checkpoint reader would. */
  void setStatus(String name, String phase, Instant commitTs, Instant logCheckpoint) {
    Backup b = admin.resources(Backup.class).inNamespace(ns).withName(name).get();
    b.setStatus(new BackupStatus());
    b.getStatus().setPhase(phase);
    b.getStatus().setCommitTs(commitTs == null ? null : Long.toString(tso(commitTs)));
    b.getStatus().setLogCheckpointTs(logCheckpoint == null ? null : Long.toString(tso(logCheckpoint)));
    admin.resources(Backup.class).inNamespace(ns).resource(b).updateStatus();
  }

  static long tso(Instant t) {
    return t.toEpochMilli() << 18;
  }

  void advance(Duration d) {
    now.set(now.get().plus(d));
  }

  BackupSchedule create(String name, String extra) {
    BackupSchedule s = ApiObjects.parse("""
        apiVersion: pingcap.com/v1alpha1
        kind: BackupSchedule
        metadata: {name: %s}
        spec:
          schedule: "*/10 * * * *"
          %s
          backupTemplate:
            cleanPolicy: Delete
            br: {cluster: basic}
            s3: {provider: minio, endpoint: "http://127.0.0.1:9", bucket: backups, prefix: sched}
        """.formatted(name, extra), BackupSchedule.class);
    s.getMetadata().setNamespace(ns);
    return admin.resource(s).create();
  }

  void setPause(String name, boolean pause) {
    admin.resources(BackupSchedule.class).inNamespace(ns).withName(name).edit(s -> {
      s.getSpec().setPause(pause);
      return s;
    });
  }

  BackupSchedule schedule(String name) {
    return admin.resources(BackupSchedule.class).inNamespace(ns).withName(name).get();
  }

  static Instant nextTen(Instant now) {
    var z = now.atZone(ZoneOffset.UTC).withSecond(0).withNano(0);
    int add = 10 - z.getMinute() % 10;
    return z.plusMinutes(add).toInstant();
  }

  static String ts(Instant t) {
    return java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd't'HH-mm-ss").withZone(ZoneOffset.UTC).format(t);
  }

  @Override
  public void close() {
    operator.close();
    operatorClient.close();
    admin.namespaces().withName(ns).delete();
    admin.close();
    unsettled.assertNone();
  }
}
