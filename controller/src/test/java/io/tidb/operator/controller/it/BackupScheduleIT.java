package io.tidb.operator.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
 * while paused. The test plays the Backup controller by writing the Backups' phases.
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
