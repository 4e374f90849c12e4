package io.tidb.operator.e2e.crashsafety;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tidb.operator.e2e.crashsafety.RetentionCrashCheck.Result;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each rule of {@link RetentionCrashCheck}, passing on a good history and failing on a bad one. */
class RetentionCrashCheckTest {

  private static final ObjectMapper MAPPER = new ObjectMapper();

  private static ObjectNode backup(String type, int minute, String phase, boolean deleting) {
    ObjectNode e = MAPPER.createObjectNode();
    e.put("type", type);
    ObjectNode meta = e.putObject("object").putObject("metadata");
    meta.put("name", "nightly-" + minute);
    meta.put("uid", "uid-" + minute);
    meta.putObject("labels").put(RetentionCrashCheck.SCHEDULE_LABEL, "nightly");
    meta.putObject("annotations").put(RetentionCrashCheck.SCHEDULED_AT, "2026-01-01T00:%02d:00Z".formatted(minute));
    if (deleting) {
      meta.put("deletionTimestamp", "2026-01-01T01:00:00Z");
    }
    if (phase != null) {
      ((ObjectNode) e.get("object")).putObject("status").put("phase", phase);
    }
    return e;
  }

  private static ObjectNode job(String name, String uid, int ownerMinute) {
    ObjectNode e = MAPPER.createObjectNode();
    e.put("type", "ADDED");
    ObjectNode meta = e.putObject("object").putObject("metadata");
    meta.put("name", name);
    meta.put("uid", uid);
    meta.putArray("ownerReferences").addObject().put("kind", "Backup").put("uid", "uid-" + ownerMinute);
    return e;
  }

  /** Five Complete Backups, the oldest two deleted through their finalizer (maxBackups 3). */
  private static List<JsonNode> goodRetention() {
    List<JsonNode> events = new ArrayList<>();
    for (int m = 1; m <= 5; m++) {
      events.add(backup("ADDED", m, "Complete", false));
    }
    events.add(backup("MODIFIED", 1, "Complete", true));
    events.add(backup("MODIFIED", 2, "Complete", true));
    events.add(backup("DELETED", 2, "Complete", true));
    events.add(backup("DELETED", 1, "Complete", true));
    return events;
  }

  @Test
  void aCorrectRetentionHasNoViolation() {
    Result r = RetentionCrashCheck.check(goodRetention(), List.of(job("clean-nightly-1", "j1", 1)), "nightly", 3);
    assertEquals(List.of(), r.violations());
    assertEquals(2, r.deleted());
    assertEquals(List.of("nightly-3", "nightly-4", "nightly-5"), r.kept());
    assertEquals(1, r.jobs());
  }

  @Test
  void deletingOneOfTheNewestIsDeletedKept() {
    List<JsonNode> events = goodRetention();
    events.add(backup("MODIFIED", 3, "Complete", true));
    Result r = RetentionCrashCheck.check(events, List.of(), "nightly", 3);
    assertEquals(1, r.violations().size());
    assertEquals("deleted-kept", r.violations().get(0).rule());
    assertTrue(r.violations().get(0).detail().contains("nightly-3"), r.violations().toString());
  }

  @Test
  void aNewerBackupCreatedFirstMakesTheNextOldestDeletable() {
    List<JsonNode> events = goodRetention();
    events.add(backup("ADDED", 6, null, false));
    events.add(backup("MODIFIED", 3, "Complete", true));
    Result r = RetentionCrashCheck.check(events, List.of(), "nightly", 3);
    assertEquals(List.of(), r.violations());
    assertEquals(List.of("nightly-4", "nightly-5", "nightly-6"), r.kept());
  }

  @Test
  void deletingARunningBackupIsDeletedRunning() {
    List<JsonNode> events = new ArrayList<>();
    events.add(backup("ADDED", 1, "Running", false));
    for (int m = 2; m <= 4; m++) {
      events.add(backup("ADDED", m, "Complete", false));
    }
    events.add(backup("DELETED", 1, "Running", false));
    Result r = RetentionCrashCheck.check(events, List.of(), "nightly", 3);
    assertEquals(List.of("deleted-running"), r.violations().stream().map(v -> v.rule()).toList());
  }

  @Test
  void backupsOfAnotherScheduleAreNotJudged() {
    List<JsonNode> events = goodRetention();
    ObjectNode other = backup("DELETED", 9, "Running", false);
    ((ObjectNode) other.get("object").get("metadata").get("labels")).put(RetentionCrashCheck.SCHEDULE_LABEL, "weekly");
    events.add(other);
    assertEquals(List.of(), RetentionCrashCheck.check(events, List.of(), "nightly", 3).violations());
  }

  @Test
  void twoCleanJobsForOneBackupAreTwoJobs() {
    Result r = RetentionCrashCheck.check(goodRetention(),
        List.of(job("clean-nightly-1", "j1", 1), job("clean-nightly-1", "j1", 1), job("clean-nightly-1", "j2", 1)),
        "nightly", 3);
    assertEquals(List.of("two-jobs"), r.violations().stream().map(v -> v.rule()).toList());
  }

  @Test
  void aBackupJobForASeededCompleteBackupIsAViolation() {
    List<JsonNode> events = goodRetention();
    events.add(backup("ADDED", 6, null, false));
    Result r = RetentionCrashCheck.check(events, List.of(job("backup-nightly-6", "j6", 6),
        job("backup-nightly-4", "j4", 4)), "nightly", 3);
    assertEquals(List.of("job-for-finished-backup"), r.violations().stream().map(v -> v.rule()).toList());
  }

  @Test
  void theCommandLineReadsKubectlWatchStreams(@TempDir Path dir) throws Exception {
    StringBuilder stream = new StringBuilder();
    for (JsonNode e : goodRetention()) {
      stream.append(MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(e)).append('\n');
    }
    stream.append(MAPPER.writeValueAsString(backup("MODIFIED", 4, "Complete", true))).append('\n');
    Files.writeString(dir.resolve("backups.json"), stream);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    int code = RetentionCrashCheck.run(new String[] {"--run-dir=" + dir, "--schedule=nightly", "--max-backups=3"},
        new PrintStream(bytes, true, StandardCharsets.UTF_8));
    String out = bytes.toString(StandardCharsets.UTF_8);
    assertEquals(1, code, out);
    assertTrue(out.contains("violation rule=deleted-kept"), out);
    assertTrue(out.endsWith("violations=1\n"), out);
  }

  @Test
  void unreadableRecordsExitTwo(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("backups.json"), "{\"type\": ");
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    int code = RetentionCrashCheck.run(new String[] {"--run-dir=" + dir, "--schedule=nightly", "--max-backups=3"},
        new PrintStream(bytes, true, StandardCharsets.UTF_8));
    assertEquals(2, code, bytes.toString(StandardCharsets.UTF_8));
  }
}
