package io.tidb.operator.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.v1alpha1.backup.Backup;
import io.tidb.operator.api.v1alpha1.backup.BackupSchedule;
import io.tidb.operator.testsupport.Await;
import io.tidb.operator.testsupport.ClusterAccess;
import io.tidb.operator.testsupport.WithKubeApiServer;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The BackupSchedule controller on a real API server with a clock the test moves: a Backup on
 * every cron time, none while the previous one runs, the oldest deleted beyond maxBackups, nothing
 * while paused, a Backup it cannot read left alone. The test plays the Backup controller by
 * writing the Backups' phases.
 */
@WithKubeApiServer
class BackupScheduleIT {

  private static ScheduleHarness h;

  @BeforeAll
  static void start(ClusterAccess access) {
    h = new ScheduleHarness(access, "backup-schedule", "schedule-it");
  }

  @AfterAll
  static void stop() {
    if (h != null) {
      h.close();
    }
  }

  @Test
  void backupsOnTimeNoneWhileOneRunsAndMaxBackupsKept() throws Exception {
    // The schedule's creation time is real time: the fake clock starts there, then only moves on.
    h.now.set(Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS));
    h.create("nightly", "maxBackups: 2");
    Thread.sleep(1500);
    assertEquals(List.of(), h.names("nightly"), "nothing due until the next */10 time");

    Instant t1 = ScheduleHarness.nextTen(h.now.get());
    h.now.set(t1.plusSeconds(5));
    String first = "nightly-" + ScheduleHarness.ts(t1);
    Await.until("first backup", Duration.ofSeconds(30), () -> h.names("nightly"), n -> n.equals(List.of(first)));
    Backup b1 = h.backups("nightly").get(0);
    assertEquals("sched/" + first, b1.getSpec().getS3().getPrefix(), "a folder of its own");
    assertEquals("Delete", b1.getSpec().getCleanPolicy());

    h.advance(Duration.ofMinutes(10));
    Thread.sleep(2000);
    assertEquals(List.of(first), h.names("nightly"), "no new backup while " + first + " runs");
    h.setPhase(first, "Complete");
    Instant t2 = t1.plus(Duration.ofMinutes(10));
    String second = "nightly-" + ScheduleHarness.ts(t2);
    Await.until("second backup", Duration.ofSeconds(30), () -> h.names("nightly"), n -> n.equals(List.of(first, second)));
    h.setPhase(second, "Complete");

    h.advance(Duration.ofMinutes(10));
    String third = "nightly-" + ScheduleHarness.ts(t2.plus(Duration.ofMinutes(10)));
    Await.until("third backup, the first deleted (maxBackups 2)", Duration.ofSeconds(30), () -> h.names("nightly"),
        n -> n.equals(List.of(second, third)));
    BackupSchedule s = h.admin.resources(BackupSchedule.class).inNamespace(h.ns).withName("nightly").get();
    assertEquals(third, s.getStatus().getLastBackup());
    assertEquals(t2.plus(Duration.ofMinutes(10)).toString(), s.getStatus().getLastBackupTime());
  }

  /**
   * A Backup of the schedule that the model cannot read (a string for its affinity, which the CRD
   * keeps without schema, stored with no webhook): the schedule goes on (reading it failed the
   * schedule's list of its backups), and retention does not count it, so it takes no place of the
   * readable ones kept to maxBackups even though it is the newest.
   */
  @Test
  void retentionDoesNotCountABackupItCannotRead() throws Exception {
    h.now.set(Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS));
    BackupSchedule schedule = h.create("keep", "maxBackups: 2");
    GenericKubernetesResource unreadable = ApiObjects.serialization().unmarshal("""
        {"apiVersion":"pingcap.com/v1alpha1","kind":"Backup",
         "metadata":{"name":"keep-unreadable","labels":{"tidb.pingcap.com/backup-schedule":"keep"},
           "annotations":{"tidb.pingcap.com/backup-scheduled-at":"2100-01-01T00:00:00Z"},
           "ownerReferences":[{"apiVersion":"pingcap.com/v1alpha1","kind":"BackupSchedule","name":"keep",
             "uid":"%s","controller":true}]},
         "spec":{"br":{"cluster":"basic"},"affinity":"none",
           "s3":{"provider":"minio","endpoint":"http://127.0.0.1:9","bucket":"backups","prefix":"sched"}}}
        """.formatted(schedule.getMetadata().getUid()), GenericKubernetesResource.class);
    backups().resource(unreadable).create();

    Instant t1 = ScheduleHarness.nextTen(h.now.get());
    h.now.set(t1.plusSeconds(5));
    String first = "keep-" + ScheduleHarness.ts(t1);
    Await.until("first backup", Duration.ofSeconds(30), () -> names("keep"), n -> n.contains(first));
    h.setPhase(first, "Complete");
    h.advance(Duration.ofMinutes(10));
    String second = "keep-" + ScheduleHarness.ts(t1.plus(Duration.ofMinutes(10)));
    Await.until("second backup", Duration.ofSeconds(30), () -> names("keep"), n -> n.contains(second));
    Thread.sleep(2000);
    assertEquals(List.of(first, second, "keep-unreadable"), names("keep"),
        "two readable backups kept (maxBackups 2), the unreadable one not counted");
  }

  private static NonNamespaceOperation<GenericKubernetesResource, GenericKubernetesResourceList,
      Resource<GenericKubernetesResource>> backups() {
    return h.admin.genericKubernetesResources("pingcap.com/v1alpha1", "Backup").inNamespace(h.ns);
  }

  /** The schedule's Backups not being deleted, by name, read without the model (one cannot be read). */
  private static List<String> names(String schedule) {
    return backups().withLabel("tidb.pingcap.com/backup-schedule", schedule).list().getItems().stream()
        .filter(b -> b.getMetadata().getDeletionTimestamp() == null)
        .map(b -> b.getMetadata().getName()).sorted().toList();
  }

  @Test
  void aPausedScheduleCreatesNothing() throws Exception {
    h.now.set(Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS));
    h.create("paused", "pause: true");
    h.advance(Duration.ofMinutes(30));
    Thread.sleep(2000);
    assertEquals(List.of(), h.names("paused"));
    BackupSchedule s = h.admin.resources(BackupSchedule.class).inNamespace(h.ns).withName("paused").get();
    assertTrue(s.getStatus() == null || s.getStatus().getLastBackup() == null);
  }
}
