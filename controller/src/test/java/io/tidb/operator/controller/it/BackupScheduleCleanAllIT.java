package io.tidb.operator.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
 * Retention deleting every Backup of a schedule (a schedule paused longer than its
 * maxReservedTime), on a real API server with a clock the test moves: as upstream, lastBackup and
 * lastBackupTime are reset and allBackupCleanTime says when, so the next Backup comes at the next
 * cron time after the clean-up, not at once for a time missed while paused; the next Backup
 * clears allBackupCleanTime. The test plays the Backup controller by writing the Backups' phases.
 */
@WithKubeApiServer
class BackupScheduleCleanAllIT {

  private static ScheduleHarness h;

  @BeforeAll
  static void start(ClusterAccess access) {
    h = new ScheduleHarness(access, "schedule-clean-all", "schedule-clean-all-it");
  }

  @AfterAll
  static void stop() {
    if (h != null) {
      h.close();
    }
  }

  @Test
  void deletingEveryBackupResetsTheLastBackupAndWaitsForTheNextCronTime() throws Exception {
    h.now.set(Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS));
    h.create("hourly", "maxReservedTime: 1h");
    Instant t1 = ScheduleHarness.nextTen(h.now.get());
    h.now.set(t1.plusSeconds(5));
    String first = "hourly-" + ScheduleHarness.ts(t1);
    Await.until("first backup", Duration.ofSeconds(30), () -> h.names("hourly"), n -> n.equals(List.of(first)));
    h.setPhase(first, "Complete");
    h.setPause("hourly", true);
    Await.until("paused", Duration.ofSeconds(30), () -> h.schedule("hourly"),
        s -> s.getStatus() != null && s.getMetadata().getGeneration().equals(s.getStatus().getObservedGeneration()));

    h.advance(Duration.ofHours(3));
    Instant cleaned = h.now.get();
    h.setPause("hourly", false);
    BackupSchedule reset = Await.until("every Backup deleted, allBackupCleanTime set", Duration.ofSeconds(30),
        () -> h.schedule("hourly"), s -> s.getStatus() != null && s.getStatus().getAllBackupCleanTime() != null);
    assertEquals(cleaned.toString(), reset.getStatus().getAllBackupCleanTime());
    assertEquals(null, reset.getStatus().getLastBackup());
    assertEquals(null, reset.getStatus().getLastBackupTime());
    assertEquals(List.of(), h.names("hourly"), "no Backup at once for the times missed while paused");

    Instant next = ScheduleHarness.nextTen(cleaned);
    h.now.set(next.plusSeconds(1));
    String second = "hourly-" + ScheduleHarness.ts(next);
    Await.until("the Backup of the next cron time", Duration.ofSeconds(30), () -> h.names("hourly"),
        n -> n.equals(List.of(second)));
    BackupSchedule after = Await.until("status of the new Backup", Duration.ofSeconds(30), () -> h.schedule("hourly"),
        s -> second.equals(s.getStatus().getLastBackup()));
    assertEquals(null, after.getStatus().getAllBackupCleanTime(), "cleared by the next Backup");
    assertEquals(next.toString(), after.getStatus().getLastBackupTime());
  }
}
