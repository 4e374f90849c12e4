package io.tidb.operator.e2e.crashsafety;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The invariants of one run of {@code hack/crash-safety-backup.sh}, judged from the two watch
 * streams the script records while it SIGKILLs the controller during a BackupSchedule's retention
 * clean-up ({@code kubectl get backups|jobs -w --output-watch-events -o json}, in the API server's
 * order):
 *
 * <ul>
 *   <li>{@code deleted-kept}: a Backup of the schedule was deleted (its {@code deletionTimestamp}
 *       set, or gone without one) while fewer than {@code maxBackups} Backups of the schedule with
 *       a later scheduled time existed and were not being deleted: retention deleted one it had to
 *       keep;
 *   <li>{@code deleted-running}: a Backup was deleted while it had no phase, or {@code Scheduled},
 *       {@code Prepare} or {@code Running}: retention never deletes a backup that runs;
 *   <li>{@code two-jobs}: two Jobs (two uids) for one Backup and one purpose ({@code backup-} or
 *       {@code clean-});
 *   <li>{@code job-for-finished-backup}: a {@code backup-} Job for a Backup that was already
 *       Complete or Failed when first seen (the seeded ones): a finished backup is never run again.
 * </ul>
 *
 * <p>Command line: {@code --run-dir DIR --schedule NAME --max-backups N}; DIR holds {@code
 * backups.json} and {@code jobs.json}. Prints one {@code violation rule=... detail="..."} line per
 * violation, then {@code deleted=D kept=K jobs=J} and {@code violations=N} last; exits 0 (none), 1
 * (violations) or 2 (unreadable input).
 */
public final class RetentionCrashCheck {

  private static final ObjectMapper MAPPER = new ObjectMapper();
  static final String SCHEDULE_LABEL = "tidb.pingcap.com/backup-schedule";
  static final String SCHEDULED_AT = "tidb.pingcap.com/backup-scheduled-at";
  private static final Set<String> TERMINAL = Set.of("Complete", "Failed");

  /** One broken invariant. */
  record Violation(String rule, String detail) {
    String render() {
      return "violation rule=" + rule + " detail=\"" + detail.replace("\"", "'") + "\"";
    }
  }

  /** The verdict of a run, with what it saw. */
  record Result(List<Violation> violations, int deleted, List<String> kept, int jobs) {}

  /** A Backup as last seen. */
  private static final class Seen {
    final String name;
    final Instant scheduledAt;
    final boolean finishedWhenFirstSeen;
    String phase;
    boolean deleting;
    boolean gone;

    Seen(String name, Instant scheduledAt, String phase) {
      this.name = name;
      this.scheduledAt = scheduledAt;
      this.phase = phase;
      this.finishedWhenFirstSeen = phase != null && TERMINAL.contains(phase);
    }

    boolean kept() {
      return !deleting && !gone;
    }
  }

  private RetentionCrashCheck() {}

  /** Judges the two event streams (each a list of {@code {type, object}} in watch order). */
  static Result check(List<JsonNode> backupEvents, List<JsonNode> jobEvents, String schedule, int maxBackups) {
    List<Violation> out = new ArrayList<>();
    Map<String, Seen> backups = new LinkedHashMap<>();
    Map<String, Seen> byUid = new HashMap<>();
    int deleted = 0;
    for (JsonNode event : backupEvents) {
      String type = event.path("type").asText();
      JsonNode obj = event.path("object");
      JsonNode meta = obj.path("metadata");
      if (!schedule.equals(meta.path("labels").path(SCHEDULE_LABEL).asText(null))) {
        continue;
      }
      String name = meta.path("name").asText();
      String phase = obj.path("status").path("phase").asText(null);
      Seen b = backups.get(name);
      if (b == null || b.gone) {
        String at = meta.path("annotations").path(SCHEDULED_AT).asText(meta.path("creationTimestamp").asText());
        b = new Seen(name, Instant.parse(at), phase);
        backups.put(name, b);
        byUid.put(meta.path("uid").asText(), b);
      }
      boolean deletionNow = !b.deleting && (meta.hasNonNull("deletionTimestamp") || "DELETED".equals(type));
      if (deletionNow) {
        deleted++;
        Seen victim = b;
        long newerKept = backups.values().stream()
            .filter(o -> o != victim && o.kept() && o.scheduledAt.isAfter(victim.scheduledAt)).count();
        if (newerKept < maxBackups) {
          out.add(new Violation("deleted-kept", "Backup " + name + " (scheduled " + b.scheduledAt + ") deleted while only "
              + newerKept + " newer Backup(s) were kept, maxBackups " + maxBackups));
        }
        String before = b.phase;
        if (before == null || !TERMINAL.contains(before)) {
          out.add(new Violation("deleted-running", "Backup " + name + " deleted in phase " + (before == null ? "(none)" : before)));
        }
        b.deleting = true;
      }
      b.phase = phase;
      if ("DELETED".equals(type)) {
        b.gone = true;
      }
    }

    Map<String, Set<String>> uidsPerPurpose = new LinkedHashMap<>();
    Set<String> jobUids = new HashSet<>();
    for (JsonNode event : jobEvents) {
      JsonNode meta = event.path("object").path("metadata");
      String name = meta.path("name").asText();
      String uid = meta.path("uid").asText();
      String purpose = name.startsWith("clean-") ? "clean" : name.startsWith("backup-") ? "backup" : null;
      Seen owner = null;
      for (JsonNode ref : meta.path("ownerReferences")) {
        if ("Backup".equals(ref.path("kind").asText())) {
          owner = byUid.get(ref.path("uid").asText());
        }
      }
      if (purpose == null || owner == null || !jobUids.add(uid)) {
        continue;
      }
      Set<String> uids = uidsPerPurpose.computeIfAbsent(owner.name + "/" + purpose, k -> new HashSet<>());
      uids.add(uid);
      if (uids.size() == 2) {
        out.add(new Violation("two-jobs", "two " + purpose + " Jobs for Backup " + owner.name + " (the second " + name
            + " uid " + uid + ")"));
      }
      if ("backup".equals(purpose) && owner.finishedWhenFirstSeen) {
        out.add(new Violation("job-for-finished-backup", "Job " + name + " created for Backup " + owner.name
            + ", which was already finished"));
      }
    }
    List<String> kept = backups.values().stream().filter(Seen::kept).map(b -> b.name).sorted().toList();
    return new Result(out, deleted, kept, jobUids.size());
  }

  static List<JsonNode> readStream(Path file) throws IOException {
    List<JsonNode> events = new ArrayList<>();
    if (!Files.exists(file) || Files.size(file) == 0) {
      return events;
    }
    try (MappingIterator<JsonNode> it = MAPPER.readerFor(JsonNode.class).readValues(file.toFile())) {
      while (it.hasNext()) {
        events.add(it.next());
      }
    }
    return events;
  }

  static int run(String[] args, PrintStream out) {
    Map<String, String> opts = new HashMap<>();
    for (String a : args) {
      int eq = a.indexOf('=');
      if (!a.startsWith("--") || eq < 0) {
        out.println("usage: --run-dir=DIR --schedule=NAME --max-backups=N (got '" + a + "')");
        return 2;
      }
      opts.put(a.substring(2, eq), a.substring(eq + 1));
    }
    if (!opts.containsKey("run-dir") || !opts.containsKey("schedule") || !opts.containsKey("max-backups")) {
      out.println("usage: --run-dir=DIR --schedule=NAME --max-backups=N");
      return 2;
    }
    Path dir = Path.of(opts.get("run-dir"));
    Result r;
    try {
      r = check(readStream(dir.resolve("backups.json")), readStream(dir.resolve("jobs.json")), opts.get("schedule"),
          Integer.parseInt(opts.get("max-backups")));
    } catch (IOException | RuntimeException e) {
      out.println("cannot read the run's records in " + dir + ": " + e);
      return 2;
    }
    r.violations().forEach(v -> out.println(v.render()));
    out.println("deleted=" + r.deleted() + " kept=" + String.join(",", r.kept()) + " jobs=" + r.jobs());
    out.println("violations=" + r.violations().size());
    return r.violations().isEmpty() ? 0 : 1;
  }

  public static void main(String[] args) {
    System.exit(run(args, System.out));
  }
}
