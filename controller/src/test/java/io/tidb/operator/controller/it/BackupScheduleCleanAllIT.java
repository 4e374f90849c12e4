package io.tidb.operator.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.v1alpha1.backup.Backup;
import io.tidb.operator.api.v1alpha1.backup.BackupSchedule;
import io.tidb.operator.api.v1alpha1.backup.BackupStatus;
import io.tidb.operator.api.validation.backup.BackupScheduleAdmissionRules;
import io.tidb.operator.controller.backup.BackupScheduleController;
import io.tidb.operator.controller.config.ComponentUrls;
import io.tidb.operator.controller.config.ControllerSettings;
import io.tidb.operator.controller.runtime.OperatorRuntime;
import io.tidb.operator.controller.runtime.RuntimeServices;
import io.tidb.operator.controller.runtime.ValidatingReconciler;
import io.tidb.operator.testsupport.Await;
import io.tidb.operator.testsupport.ClusterAccess;
import io.tidb.operator.testsupport.ProjectCrds;
import io.tidb.operator.testsupport.TestNamespaces;
import io.tidb.operator.testsupport.WithKubeApiServer;
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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Retention deleting every Backup of a schedule (a schedule paused longer than its
 * maxReservedTime), on a real API server with a clock the test moves: as upstream, lastBackup and
 * lastBackupTime are reset and allBackupCleanTime says when, so the next Backup comes at the next
 * cron time after the clean-up, not at once for a time missed while paused; the next Backup
 * clears allBackupCleanTime. The test plays the Backup controller by writing the Backups' phases.
 */
@WithKubeApiServer
class BackupScheduleCleanAllIT {

  private static final AtomicReference<Instant> NOW = new AtomicReference<>();
  private static KubernetesClient admin;
  private static KubernetesClient operatorClient;
  private static OperatorRuntime operator;
  private static String ns;

  @BeforeAll
  static void start(ClusterAccess access) {
    admin = access.newClient();
    ProjectCrds.apply(admin);
    ns = TestNamespaces.createUnique(admin, "schedule-clean-all");
    NOW.set(Instant.now().atZone(ZoneOffset.UTC).withSecond(0).withNano(0).toInstant());
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
        return NOW.get();
      }
    };
    operatorClient = new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(access.kubeConfigYaml())).build();
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    ControllerSettings settings = new ControllerSettings(Set.of(ns), 2, Duration.ofSeconds(30), Duration.ofMillis(300),
        Optional.empty(), new InetSocketAddress("127.0.0.1", 0), ComponentUrls.defaults(), "tidb-operator-java/controller:it",
        "schedule-clean-all-it");
    RuntimeServices services = RuntimeServices.create(operatorClient, registry, settings.identity(), clock);
    operator = OperatorRuntime.create(settings, operatorClient, registry, List.<ValidatingReconciler<?, ?>>of(
        BackupScheduleController.create(services, new BackupScheduleAdmissionRules(), operatorClient,
            settings.convergingRequeue())));
    operator.start();
  }

  @AfterAll
  static void stop() {
    if (operator != null) {
      operator.close();
      operatorClient.close();
    }
    admin.namespaces().withName(ns).delete();
    admin.close();
  }

  private static List<Backup> backups(String schedule) {
    return admin.resources(Backup.class).inNamespace(ns).withLabel("tidb.pingcap.com/backup-schedule", schedule)
        .list().getItems().stream().filter(b -> b.getMetadata().getDeletionTimestamp() == null)
        .sorted(java.util.Comparator.comparing(b -> b.getMetadata().getName())).toList();
  }

  private static List<String> names(String schedule) {
    return backups(schedule).stream().map(b -> b.getMetadata().getName()).toList();
  }

  private static void setPhase(String name, String phase) {
    Backup b = admin.resources(Backup.class).inNamespace(ns).withName(name).get();
    b.setStatus(new BackupStatus());
    b.getStatus().setPhase(phase);
    admin.resources(Backup.class).inNamespace(ns).resource(b).updateStatus();
  }

  private static void advance(Duration d) {
    NOW.set(NOW.get().plus(d));
  }

  private static BackupSchedule create(String name, String extra) {
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

  private static void setPause(String name, boolean pause) {
    admin.resources(BackupSchedule.class).inNamespace(ns).withName(name).edit(s -> {
      s.getSpec().setPause(pause);
      return s;
    });
  }

  private static BackupSchedule schedule(String name) {
    return admin.resources(BackupSchedule.class).inNamespace(ns).withName(name).get();
  }

  @Test
  void deletingEveryBackupResetsTheLastBackupAndWaitsForTheNextCronTime() throws Exception {
    NOW.set(Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS));
    create("hourly", "maxReservedTime: 1h");
    Instant t1 = nextTen(NOW.get());
    NOW.set(t1.plusSeconds(5));
    String first = "hourly-" + ts(t1);
    Await.until("first backup", Duration.ofSeconds(30), () -> names("hourly"), n -> n.equals(List.of(first)));
    setPhase(first, "Complete");
    setPause("hourly", true);
    Await.until("paused", Duration.ofSeconds(30), () -> schedule("hourly"),
        s -> s.getStatus() != null && s.getMetadata().getGeneration().equals(s.getStatus().getObservedGeneration()));

    advance(Duration.ofHours(3));
    Instant cleaned = NOW.get();
    setPause("hourly", false);
    BackupSchedule reset = Await.until("every Backup deleted, allBackupCleanTime set", Duration.ofSeconds(30),
        () -> schedule("hourly"), s -> s.getStatus() != null && s.getStatus().getAllBackupCleanTime() != null);
    assertEquals(cleaned.toString(), reset.getStatus().getAllBackupCleanTime());
    assertEquals(null, reset.getStatus().getLastBackup());
    assertEquals(null, reset.getStatus().getLastBackupTime());
    assertEquals(List.of(), names("hourly"), "no Backup at once for the times missed while paused");

    Instant next = nextTen(cleaned);
    NOW.set(next.plusSeconds(1));
    String second = "hourly-" + ts(next);
    Await.until("the Backup of the next cron time", Duration.ofSeconds(30), () -> names("hourly"),
        n -> n.equals(List.of(second)));
    BackupSchedule after = Await.until("status of the new Backup", Duration.ofSeconds(30), () -> schedule("hourly"),
        s -> second.equals(s.getStatus().getLastBackup()));
    assertEquals(null, after.getStatus().getAllBackupCleanTime(), "cleared by the next Backup");
    assertEquals(next.toString(), after.getStatus().getLastBackupTime());
  }

  private static Instant nextTen(Instant now) {
    var z = now.atZone(ZoneOffset.UTC).withSecond(0).withNano(0);
    int add = 10 - z.getMinute() % 10;
    return z.plusMinutes(add).toInstant();
  }

  private static String ts(Instant t) {
    return java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd't'HH-mm-ss").withZone(ZoneOffset.UTC).format(t);
  }
}
