package io.tidb.operator.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tidb.operator.api.v1alpha1.backup.Backup;
import io.tidb.operator.api.v1alpha1.backup.BackupSchedule;
import io.tidb.operator.testsupport.Await;
import io.tidb.operator.testsupport.ClusterAccess;
import io.tidb.operator.testsupport.WithKubeApiServer;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A BackupSchedule with a {@code logBackupTemplate} on a real API server, with a clock the test
 * moves: the log backup {@code log-<schedule>} is created once, in its own folder, owned by the
 * schedule and recorded in the status; it never counts as a snapshot; and {@code maxReservedTime}
 * deletes the snapshots a restore to the last 15 minutes does not need, keeps the one such a
 * restore starts from, and sets the log backup's {@code logTruncateUntil} to that one's commit ts.
 * The test plays the Backup controller (phases, commit ts, the log's checkpoint).
 */
@WithKubeApiServer
class BackupScheduleLogIT {

  private static ScheduleHarness h;

  @BeforeAll
  static void start(ClusterAccess access) {
    h = new ScheduleHarness(access, "schedule-log", "schedule-log-it");
  }

  @AfterAll
  static void stop() {
    if (h != null) {
      h.close();
    }
  }

  @Test
  void theLogBackupIsCreatedOnceAndTruncatedUpToTheOldestSnapshotKept() throws Exception {
    Instant start = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    h.now.set(start);
    h.create("pitr", """
        maxReservedTime: 15m
          logBackupTemplate:
            backupMode: log
            cleanPolicy: Delete
            br: {cluster: basic}
            s3: {provider: minio, endpoint: "http://127.0.0.1:9", bucket: backups, prefix: pitr}""");
    BackupSchedule recorded = Await.until("the log backup recorded", Duration.ofSeconds(30), () -> h.schedule("pitr"),
        s -> s.getStatus() != null && "log-pitr".equals(s.getStatus().getLogBackup()));
    assertEquals(start.toString(), recorded.getStatus().getLogBackupStartTs());
    Backup log = h.admin.resources(Backup.class).inNamespace(h.ns).withName("log-pitr").get();
    assertEquals("log", log.getSpec().getBackupMode());
    assertEquals("pitr/log-" + ScheduleHarness.ts(start), log.getSpec().getS3().getPrefix(), "a folder of its own");
    assertEquals(recorded.getMetadata().getUid(), log.getMetadata().getOwnerReferences().get(0).getUid(),
        "deleting the schedule deletes it (and so stops it)");
    h.setStatus("log-pitr", "Running", start, start);

    Instant t1 = ScheduleHarness.nextTen(start);
    h.now.set(t1.plusSeconds(5));
    String s1 = "pitr-" + ScheduleHarness.ts(t1);
    Await.until("the first snapshot, the log backup not blocking it", Duration.ofSeconds(30), () -> h.names("pitr"),
        n -> n.equals(List.of("log-pitr", s1)));
    h.setStatus(s1, "Complete", t1, null);
    Instant t2 = t1.plus(Duration.ofMinutes(10));
    h.advance(Duration.ofMinutes(10));
    String s2 = "pitr-" + ScheduleHarness.ts(t2);
    Await.until("second snapshot", Duration.ofSeconds(30), () -> h.names("pitr"), n -> n.contains(s2));
    h.setStatus(s2, "Complete", t2, null);
    Instant t3 = t2.plus(Duration.ofMinutes(10));
    h.advance(Duration.ofMinutes(10));
    String s3 = "pitr-" + ScheduleHarness.ts(t3);
    Await.until("third snapshot", Duration.ofSeconds(30), () -> h.names("pitr"), n -> n.contains(s3));
    h.setStatus(s3, "Complete", t3, null);
    h.setStatus("log-pitr", "Running", start, t3);
    // The expiry point is t3 - 15m, after t1 only: s1 is what a restore to it starts from; nothing goes.
    Await.until("the schedule saw s3 complete", Duration.ofSeconds(30), () -> h.schedule("pitr"),
        s -> s3.equals(s.getStatus().getLastBackup()));
    assertEquals(List.of("log-pitr", s1, s2, s3), h.names("pitr"));

    Instant t4 = t3.plus(Duration.ofMinutes(10));
    h.advance(Duration.ofMinutes(10));
    String s4 = "pitr-" + ScheduleHarness.ts(t4);
    Await.until("fourth snapshot", Duration.ofSeconds(30), () -> h.names("pitr"), n -> n.contains(s4));
    h.setStatus(s4, "Complete", t4, null);
    // Now the expiry point is t4 - 15m, after t2: s1 goes, s2 is kept and the log truncated up to it.
    Await.until("s1 deleted, s2 kept", Duration.ofSeconds(30), () -> h.names("pitr"),
        n -> n.equals(List.of("log-pitr", s2, s3, s4)));
    Backup truncated = Await.until("the log truncated up to s2's commit ts", Duration.ofSeconds(30),
        () -> h.admin.resources(Backup.class).inNamespace(h.ns).withName("log-pitr").get(),
        b -> b.getSpec().getLogTruncateUntil() != null);
    assertEquals(Long.toString(ScheduleHarness.tso(t2)), truncated.getSpec().getLogTruncateUntil());
    assertEquals("log-pitr", h.schedule("pitr").getStatus().getLogBackup());
    assertEquals(start.toString(), h.schedule("pitr").getStatus().getLogBackupStartTs(), "created once");
  }
}
