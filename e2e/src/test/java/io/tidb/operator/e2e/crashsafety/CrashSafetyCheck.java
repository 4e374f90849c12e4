package io.tidb.operator.e2e.crashsafety;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The invariants of one crash-safety run ({@code hack/crash-safety.sh}), judged from what the PD
 * simulator recorded: its state-transition journal ({@code GET /sim/journal}), the calls the
 * operator sent ({@code GET /sim/calls}) and the final state ({@code GET /sim/clusters}, PD's
 * {@code GET /pd/api/v1/schedulers}).
 *
 * <p>History rules look at the state at {@code since} (when the script changed the spec) and at
 * every transition after it, so bring-up (stores joining one by one) does not count:
 *
 * <ul>
 *   <li>{@code scale-in-parallelism}: never more TiKV stores being removed at once (Offline, or
 *       Tombstone while their pod still exists) than {@code scalePolicy.scaleInParallelism};
 *   <li>{@code min-up-stores}: never fewer TiKV stores in state Up than PD's max-replicas;
 *   <li>{@code tikv-majority}: never more Up TiKV stores without heartbeat (restarting) at once
 *       than a minority of max-replicas, {@code (max-replicas - 1) / 2}: more loses majorities;
 *   <li>{@code pd-quorum}: never half or fewer of the PD members healthy.
 * </ul>
 *
 * Call rule: {@code delete-offline-store}: no {@code DELETE /pd/api/v1/store/<id>} for a store
 * that was Offline already (a store deleted twice); {@code pd-member-deleted-twice}: no PD member
 * id deleted ({@code DELETE /pd/api/v1/members/id/<id>} answered 2xx) twice; {@code
 * pd-failover-healthy-member}: a member deleted by id (a failover) was unhealthy just before (its
 * last health event before the {@code member-deleted} that follows the call). Final rule: {@code evict-leader-left}: no
 * evict-leader scheduler left, neither in PD's scheduler list nor in the simulator's state.
 * Plus {@code no-baseline}: the journal has no entry before {@code since}, so nothing can be
 * judged.
 *
 * <p>Command line (the script's): {@code --run-dir DIR --cluster NS/NAME --since INSTANT
 * [--scale-in-parallelism N]}; DIR holds {@code journal.json}, {@code calls.json}, {@code
 * clusters.json} and {@code schedulers.json} (PD's answer, whatever it was). Prints one {@code
 * violation rule=... time=... detail="..."} line per violation and {@code violations=N} last; exits
 * 0 (none), 1 (violations) or 2 (unreadable input).
 */
public final class CrashSafetyCheck {

  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final Pattern DELETE_STORE = Pattern.compile("/pd/api/v1/store/(\\d+)");
  private static final Pattern DELETE_MEMBER_ID = Pattern.compile("/pd/api/v1/members/id/(\\d+)");
  static final String EVICT_LEADER = "evict-leader-scheduler";

  /** One journal entry, as {@code /sim/journal} renders it. */
  record Entry(
      long seq, Instant time, String event, Long store, String pod, String member,
      int members, int healthyMembers, int upTikvStores, int offlineTikvStores,
      int tombstoneTikvPods, int stoppedTikvStores, List<Long> evictLeaderStores,
      int maxReplicas) {

    String describe() {
      StringBuilder text = new StringBuilder(event);
      if (store != null) {
        text.append(" store ").append(store);
      }
      if (pod != null) {
        text.append(" (").append(pod).append(')');
      }
      if (member != null) {
        text.append(" member ").append(member);
      }
      return text.toString();
    }
  }

  /** One recorded call, as {@code /sim/calls} renders it. */
  record Call(Instant time, String method, String path, String query, int status) {
    String request() {
      return method + " " + path + (query == null ? "" : "?" + query);
    }
  }

  /** One broken invariant; {@code time} is when it happened (null for the final rules). */
  record Violation(String rule, Instant time, String detail) {
    String line() {
      return "violation rule=" + rule + " time=" + (time == null ? "-" : time)
          + " detail=\"" + detail.replace("\"", "'") + "\"";
    }
  }

  /**
   * What one run left behind.
   *
   * @param schedulers PD's answer to {@code GET schedulers}: a JSON array of names, or anything
   *     else (then the rule cannot confirm that no evict-leader scheduler is left)
   * @param simEvictLeaderStores the simulator's evict-leader stores for the cluster at the end
   */
  record Run(
      List<Entry> journal, List<Call> calls, Instant since, int scaleInParallelism,
      JsonNode schedulers, List<Long> simEvictLeaderStores) {}

  private CrashSafetyCheck() {}

  /** Every violation of the run, in rule order, each rule's in time order. */
  static List<Violation> check(Run run) {
    List<Violation> violations = new ArrayList<>();
    List<Entry> window = window(run);
    boolean baseline = !window.isEmpty() && window.get(0).time().isBefore(run.since());
    if (!baseline) {
      violations.add(new Violation("no-baseline", run.since(),
          "the journal has no entry before " + run.since() + " (" + run.journal().size()
              + " entries): the state before the change is unknown, nothing can be judged"));
      return violations;
    }
    int parallelism = run.scaleInParallelism();
    episodes(window, e -> e.offlineTikvStores() + e.tombstoneTikvPods() > parallelism,
        e -> String.format("%d TiKV stores being removed at once (Offline %d, Tombstone with "
                + "pod %d), more than scaleInParallelism %d",
            e.offlineTikvStores() + e.tombstoneTikvPods(),
            e.offlineTikvStores(), e.tombstoneTikvPods(), parallelism),
        "scale-in-parallelism", violations);
    episodes(window, e -> e.upTikvStores() < e.maxReplicas(),
        e -> String.format("%d Up TiKV stores, fewer than max-replicas %d", e.upTikvStores(),
            e.maxReplicas()),
        "min-up-stores", violations);
    episodes(window, e -> e.stoppedTikvStores() > (e.maxReplicas() - 1) / 2,
        e -> String.format("%d Up TiKV stores without heartbeat at once, more than %d of "
                + "max-replicas %d", e.stoppedTikvStores(), (e.maxReplicas() - 1) / 2,
            e.maxReplicas()),
        "tikv-majority", violations);
    episodes(window, e -> e.members() > 0 && e.healthyMembers() * 2 <= e.members(),
        e -> String.format("%d of %d PD members healthy: no quorum", e.healthyMembers(),
            e.members()),
        "pd-quorum", violations);
    deletesOfOfflineStores(run, violations);
    pdMemberDeletions(run, violations);
    evictLeaderLeft(run, violations);
    return violations;
  }

  /** The state at {@code since} (the last entry before it) and every entry from then on. */
  static List<Entry> window(Run run) {
    List<Entry> window = new ArrayList<>();
    Entry baseline = null;
    for (Entry entry : run.journal()) {
      if (entry.time().isBefore(run.since())) {
        baseline = entry;
      } else {
        window.add(entry);
      }
    }
    if (baseline != null) {
      window.add(0, baseline);
    }
    return window;
  }

  /** One violation each time {@code bad} turns true (it may stay true for several entries). */
  private static void episodes(
      List<Entry> window, Predicate<Entry> bad, Function<Entry, String> what,
      String rule, List<Violation> violations) {
    boolean inside = false;
    for (int i = 0; i < window.size(); i++) {
      Entry entry = window.get(i);
      boolean now = bad.test(entry);
      if (now && !inside) {
        String when = i == 0 ? "already at the change" : "after " + entry.describe();
        violations.add(new Violation(rule, entry.time(),
            what.apply(entry) + ", " + when + " (journal seq " + entry.seq() + ")"));
      }
      inside = now;
    }
  }

  private static void deletesOfOfflineStores(Run run, List<Violation> violations) {
    for (Call call : run.calls()) {
      if (!call.method().equals("DELETE")) {
        continue;
      }
      Matcher matcher = DELETE_STORE.matcher(call.path());
      if (!matcher.matches()) {
        continue;
      }
      long id = Long.parseLong(matcher.group(1));
      Optional<Entry> offline = stateBefore(run.journal(), id, call.time());
      if (offline.isPresent() && offline.get().event().equals("store-offline")) {
        violations.add(new Violation("delete-offline-store", call.time(),
            call.request() + " (answered " + call.status() + ") for store " + id
                + ", which was Offline already since " + offline.get().time() + " (journal seq "
                + offline.get().seq() + ")"));
      }
    }
  }

  private static void pdMemberDeletions(Run run, List<Violation> violations) {
    Map<String, Call> deleted = new HashMap<>();
    for (Call call : run.calls()) {
      Matcher matcher = DELETE_MEMBER_ID.matcher(call.path());
      if (!call.method().equals("DELETE") || !matcher.matches()
          || call.status() < 200 || call.status() >= 300) {
        continue;
      }
      String id = matcher.group(1);
      Call before = deleted.putIfAbsent(id, call);
      if (before != null) {
        violations.add(new Violation("pd-member-deleted-twice", call.time(),
            call.request() + " answered " + call.status() + " again; the first at "
                + before.time()));
      }
      Optional<Entry> gone = run.journal().stream()
          .filter(e -> e.event().equals("member-deleted") && !e.time().isBefore(call.time()))
          .findFirst();
      if (gone.isEmpty() || gone.get().member() == null) {
        continue;
      }
      String member = gone.get().member();
      Entry health = null;
      for (Entry e : run.journal()) {
        if (e.seq() >= gone.get().seq()) {
          break;
        }
        if (member.equals(e.member()) && List.of("member-added", "member-healthy",
            "member-unhealthy").contains(e.event())) {
          health = e;
        }
      }
      if (health != null && !health.event().equals("member-unhealthy")) {
        violations.add(new Violation("pd-failover-healthy-member", call.time(),
            call.request() + " deleted member " + member + ", healthy since " + health.time()
                + " (" + health.event() + ", journal seq " + health.seq() + ")"));
      }
    }
  }

  /** The last state-changing entry of a store strictly before {@code time}. */
  static Optional<Entry> stateBefore(List<Entry> journal, long store, Instant time) {
    Entry last = null;
    for (Entry entry : journal) {
      if (!entry.time().isBefore(time)) {
        break;
      }
      if (entry.store() != null && entry.store() == store
          && List.of("store-joined", "store-offline", "store-up", "store-tombstone")
              .contains(entry.event())) {
        last = entry;
      }
    }
    return Optional.ofNullable(last);
  }

  private static void evictLeaderLeft(Run run, List<Violation> violations) {
    JsonNode schedulers = run.schedulers();
    if (schedulers == null || !schedulers.isArray()) {
      violations.add(new Violation("evict-leader-left", null,
          "could not read PD's schedulers at the end, so a left-over evict-leader scheduler "
              + "cannot be ruled out: " + (schedulers == null ? "no answer" : schedulers)));
    } else {
      for (JsonNode name : schedulers) {
        if (name.asText().startsWith(EVICT_LEADER)) {
          violations.add(new Violation("evict-leader-left", null,
              "PD still lists scheduler " + name.asText() + " at the end"));
        }
      }
    }
    if (!run.simEvictLeaderStores().isEmpty()) {
      violations.add(new Violation("evict-leader-left", null,
          "the simulator still evicts leaders from stores " + run.simEvictLeaderStores()
              + " at the end"));
    }
  }

  // ---------------------------------------------------------------- input

  static List<Entry> parseJournal(JsonNode array, String cluster) {
    List<Entry> entries = new ArrayList<>();
    for (JsonNode node : requireArray(array, "journal")) {
      if (cluster != null && node.hasNonNull("cluster")
          && !cluster.equals(node.get("cluster").asText())) {
        continue;
      }
      List<Long> evict = new ArrayList<>();
      node.path("evictLeaderStores").forEach(id -> evict.add(id.asLong()));
      entries.add(new Entry(
          node.path("seq").asLong(), instant(node, "time"), text(node, "event"),
          node.hasNonNull("store") ? node.get("store").asLong() : null, text(node, "pod"),
          text(node, "member"), node.path("members").asInt(), node.path("healthyMembers").asInt(),
          node.path("upTikvStores").asInt(), node.path("offlineTikvStores").asInt(),
          node.path("tombstoneTikvPods").asInt(), node.path("stoppedTikvStores").asInt(),
          evict, node.path("maxReplicas").asInt()));
    }
    return entries;
  }

  static List<Call> parseCalls(JsonNode array, String cluster) {
    List<Call> calls = new ArrayList<>();
    for (JsonNode node : requireArray(array, "calls")) {
      if (cluster != null && node.hasNonNull("cluster")
          && !cluster.equals(node.get("cluster").asText())) {
        continue;
      }
      calls.add(new Call(instant(node, "time"), text(node, "method"), text(node, "path"),
          text(node, "query"), node.path("status").asInt()));
    }
    return calls;
  }

  /** The cluster's evict-leader stores in {@code /sim/clusters}; none if the cluster is absent. */
  static List<Long> parseSimEvictLeaderStores(JsonNode array, String cluster) {
    List<Long> ids = new ArrayList<>();
    for (JsonNode node : requireArray(array, "clusters")) {
      if (cluster.equals(node.path("cluster").asText())) {
        node.path("evictLeaderStores").forEach(id -> ids.add(id.asLong()));
      }
    }
    return ids;
  }

  private static JsonNode requireArray(JsonNode node, String what) {
    if (node == null || !node.isArray()) {
      throw new IllegalArgumentException(what + ": expected a JSON array, got "
          + (node == null ? "nothing" : node.getNodeType()));
    }
    return node;
  }

  private static String text(JsonNode node, String field) {
    JsonNode value = node.get(field);
    return value == null || value.isNull() ? null : value.asText();
  }

  private static Instant instant(JsonNode node, String field) {
    String value = text(node, field);
    if (value == null) {
      throw new IllegalArgumentException(field + ": missing in " + node);
    }
    return Instant.parse(value);
  }

  /** PD's answer as JSON, or as a JSON string of the raw text when it is not JSON. */
  static JsonNode readLenient(Path file) throws IOException {
    if (!Files.exists(file)) {
      return null;
    }
    String text = Files.readString(file);
    try {
      JsonNode node = MAPPER.readTree(text);
      return node == null || node.isMissingNode() ? MAPPER.getNodeFactory().textNode(text) : node;
    } catch (IOException e) {
      return MAPPER.getNodeFactory().textNode(text.strip());
    }
  }

  // ---------------------------------------------------------------- command line

  static int run(String[] args, PrintStream out, PrintStream err) {
    Map<String, String> options;
    try {
      options = options(args);
    } catch (IllegalArgumentException e) {
      err.println("crash-safety-check: " + e.getMessage());
      err.println("usage: CrashSafetyCheck --run-dir DIR --cluster NS/NAME --since INSTANT"
          + " [--scale-in-parallelism N]");
      return 2;
    }
    Run run;
    String cluster = options.get("cluster");
    try {
      Path dir = Path.of(options.get("run-dir"));
      Instant since = Instant.parse(options.get("since"));
      int parallelism = Integer.parseInt(options.getOrDefault("scale-in-parallelism", "1"));
      run = new Run(
          parseJournal(MAPPER.readTree(dir.resolve("journal.json").toFile()), cluster),
          parseCalls(MAPPER.readTree(dir.resolve("calls.json").toFile()), cluster),
          since, parallelism, readLenient(dir.resolve("schedulers.json")),
          parseSimEvictLeaderStores(MAPPER.readTree(dir.resolve("clusters.json").toFile()),
              cluster));
    } catch (IOException | RuntimeException e) {
      err.println("crash-safety-check: cannot read the run: " + e);
      return 2;
    }
    out.println("crash-safety-check cluster=" + cluster + " since=" + run.since()
        + " journal=" + run.journal().size() + " calls=" + run.calls().size()
        + " scaleInParallelism=" + run.scaleInParallelism());
    List<Violation> violations = check(run);
    violations.forEach(v -> out.println(v.line()));
    out.println("violations=" + violations.size());
    return violations.isEmpty() ? 0 : 1;
  }

  private static Map<String, String> options(String[] args) {
    Map<String, String> options = new LinkedHashMap<>();
    Map<String, Boolean> known = new HashMap<>(Map.of(
        "run-dir", true, "cluster", true, "since", true, "scale-in-parallelism", false));
    for (String arg : args) {
      if (!arg.startsWith("--") || !arg.contains("=")) {
        throw new IllegalArgumentException("expected --name=value, got '" + arg + "'");
      }
      String name = arg.substring(2, arg.indexOf('='));
      if (!known.containsKey(name)) {
        throw new IllegalArgumentException("unknown option --" + name);
      }
      options.put(name, arg.substring(arg.indexOf('=') + 1));
    }
    known.forEach((name, required) -> {
      if (required && !options.containsKey(name)) {
        throw new IllegalArgumentException("--" + name + " is required");
      }
    });
    try {
      Instant.parse(options.get("since"));
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException("--since: invalid instant '" + options.get("since")
          + "': use e.g. 2025-01-15T08:00:00.123Z");
    }
    return options;
  }

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }
}
