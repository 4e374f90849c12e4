package io.tidb.operator.controller.backup.brstandin;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tidb.operator.api.validation.backup.BackupTimestamps;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

/**
 * The stand-in's {@code br log start|stop|pause|resume|truncate} (test infrastructure only), with
 * BR's command lines and rules: one log task at a time, a task paused or resumed only from the
 * other state, stopped only when it exists, truncated only in a storage that holds a log backup.
 * The tasks live in the directory {@code BR_STANDIN_LOG_TASKS} (standing in for PD's etcd, where BR
 * keeps them), one JSON file per task. The start writes {@code backup.lock} and the log backup's
 * meta ({@code v1/backupmeta/<start-ts>.meta}) to S3 and reports {@code [start-ts=...]} on its task
 * line; the truncation moves {@code v1_stream_trancate_safepoint.txt} (BR's name) forward and
 * checks it never goes back silently. With {@code BR_STANDIN_PD_ETCD} (the URL of the cluster's
 * PD, the simulator's) the pause also writes BR's pause mark {@code /tidb/br-stream/pause/<task>}
 * into PD's etcd (a V2 pause of severity {@code MANUAL}), and the resume and the stop delete it,
 * as BR does.
 */
@Command(name = "log", subcommands = {
    BrLogStandIn.Start.class, BrLogStandIn.Stop.class, BrLogStandIn.Pause.class, BrLogStandIn.Resume.class,
    BrLogStandIn.Truncate.class})
final class BrLogStandIn {

  static final String TRUNCATE_SAFEPOINT = "v1_stream_trancate_safepoint.txt";

  static Path tasks() throws Exception {
    String dir = System.getenv("BR_STANDIN_LOG_TASKS");
    if (dir == null) {
      throw new IllegalStateException("BR_STANDIN_LOG_TASKS is not set: the stand-in has no place for log tasks");
    }
    Path p = Path.of(dir);
    Files.createDirectories(p);
    return p;
  }

  static ObjectNode task(String name) throws Exception {
    Path f = tasks().resolve(name + ".json");
    if (!Files.exists(f)) {
      throw new IllegalStateException("[BR:Stream:ErrStreamLogTaskNotFound]the task " + name + " not found");
    }
    return (ObjectNode) BrStandIn.JSON.readTree(f.toFile());
  }

  static void save(ObjectNode task) throws Exception {
    Files.writeString(tasks().resolve(task.path("name").asText() + ".json"), BrStandIn.JSON.writeValueAsString(task));
  }

  /** The cluster's PD etcd when {@code BR_STANDIN_PD_ETCD} names it. */
  static java.util.Optional<io.tidb.operator.pd.PdEtcdClient> pdEtcd() {
    String url = System.getenv("BR_STANDIN_PD_ETCD");
    return url == null ? java.util.Optional.empty() : java.util.Optional.of(new io.tidb.operator.pd.PdEtcdClient(
        java.net.URI.create(url), io.tidb.operator.pd.PdClientOptions.defaults().newHttpClient(),
        java.time.Duration.ofSeconds(10)));
  }

  static String pauseKey(String task) {
    return "/tidb/br-stream/pause/" + task;
  }

  /** BR's V2 pause of a task paused by hand. */
  static byte[] manualPause() throws Exception {
    ObjectNode pause = BrStandIn.JSON.createObjectNode();
    pause.put("severity", "MANUAL");
    pause.put("operation_hostname", java.net.InetAddress.getLocalHost().getHostName());
    pause.put("operation_pid", ProcessHandle.current().pid());
    pause.put("operation_time", Instant.now().toString());
    pause.put("payload_type", "");
    pause.put("payload", "");
    return BrStandIn.JSON.writeValueAsBytes(pause);
  }

  static void done(String command, ObjectNode task) {
    Map<String, String> fields = new LinkedHashMap<>();
    fields.put("task-name", task.path("name").asText());
    fields.put("start-ts", task.path("start_ts").asText());
    fields.put("storage", task.path("storage").asText());
    fields.put("paused", task.path("paused").asText());
    BrStandIn.log("INFO", "collector.go:77", command, fields);
    BrStandIn.summary(command, List.of("total-take", "12ms"));
  }

  /**
   * {@code br restore point}: reads the log backup's meta in {@code --storage} and the full
   * backup (every file checked) in {@code --full-backup-storage}, or starts at {@code --start-ts};
   * refuses, as BR does, a full backup older than the log's start, a point before the full backup
   * or the log's start, a point in the truncated part of the log, and a point after now.
   */
  static int restorePoint(BrStandIn.Connection c, String fullStorage, String restoredTs, String startTs) throws Exception {
    BrStandIn.log("INFO", "stream.go:1300", "context", Map.of("pd", c.pd, "storage", c.storage));
    long started = System.nanoTime();
    c.behave();
    try (S3Client s3 = c.s3()) {
      List<software.amazon.awssdk.services.s3.model.S3Object> metas = s3.listObjectsV2(b -> b.bucket(c.bucket())
          .prefix(c.prefix() + "v1/backupmeta/")).contents();
      if (metas.isEmpty()) {
        throw new IllegalStateException("[BR:Common:ErrInvalidArgument]no log backup in " + c.storage);
      }
      long logStart = Long.MAX_VALUE;
      for (var m : metas) {
        logStart = Math.min(logStart, BrStandIn.JSON.readTree(s3.getObjectAsBytes(b -> b.bucket(c.bucket()).key(m.key()))
            .asByteArray()).path("start_ts").asLong());
      }
      long truncated = 0;
      try {
        truncated = Long.parseLong(s3.getObjectAsBytes(b -> b.bucket(c.bucket()).key(c.prefix() + TRUNCATE_SAFEPOINT))
            .asString(StandardCharsets.UTF_8).trim());
      } catch (NoSuchKeyException e) {
        // nothing truncated
      }
      long from;
      int files = 0;
      long size = 0;
      if (fullStorage != null) {
        BrStandIn.FullBackup full = BrStandIn.readFullBackup(s3, fullStorage);
        from = full.backupTs();
        files = full.files();
        size = full.size();
        if (from < logStart) {
          throw new IllegalStateException("[BR:Restore:ErrRestoreInvalidRange]the full backup (BackupTS=" + from
              + ") is older than the log backup's start (start-ts=" + logStart + ")");
        }
      } else if (startTs != null) {
        from = BackupTimestamps.toTso(startTs).orElseThrow(
            () -> new IllegalArgumentException("[BR:Common:ErrInvalidArgument]invalid --start-ts " + startTs));
      } else {
        throw new IllegalArgumentException("[BR:Common:ErrInvalidArgument]--full-backup-storage or --start-ts is needed");
      }
      long now = BackupTimestamps.tsoOf(Instant.now());
      long point = restoredTs == null ? now : BackupTimestamps.toTso(restoredTs).orElseThrow(
          () -> new IllegalArgumentException("[BR:Common:ErrInvalidArgument]invalid --restored-ts " + restoredTs));
      if (point < from || point < logStart) {
        throw new IllegalStateException("[BR:Restore:ErrRestoreInvalidRange]restored-ts " + point
            + " is before the restore's start " + Math.max(from, logStart));
      }
      if (point < truncated || from < truncated) {
        throw new IllegalStateException("[BR:Restore:ErrRestoreInvalidRange]the log before " + truncated
            + " has been truncated");
      }
      if (point > now) {
        throw new IllegalStateException("[BR:Restore:ErrRestoreInvalidRange]restored-ts " + point + " is in the future");
      }
      double took = (System.nanoTime() - started) / 1e9;
      BrStandIn.summary("Restore log", List.of("total-take", String.format("%.3fs", took), "restore-from", from,
          "restored-ts", point, "BackupTS", from, "total-kv", files * 100, "Size", size));
    }
    return 0;
  }

  /** Options of a command on one task. */
  abstract static class OnTask extends BrStandIn.Connection {
    @Option(names = "--task-name", required = true) String taskName;
  }

  @Command(name = "start")
  static final class Start extends OnTask {
    @Option(names = "--start-ts") String startTs;
    @Option(names = "--filter") List<String> filters;

    @Override
    public Integer call() throws Exception {
      behave();
      try (Stream<Path> existing = Files.list(tasks())) {
        if (existing.findAny().isPresent()) {
          throw new IllegalStateException("[BR:Stream:ErrStreamLogTaskExist]It supports single stream log task currently");
        }
      }
      long ts = startTs != null ? BackupTimestamps.toTso(startTs).orElseThrow(
          () -> new IllegalArgumentException("[BR:Common:ErrInvalidArgument]invalid --start-ts " + startTs))
          : BackupTimestamps.tsoOf(Instant.now());
      ObjectNode task = BrStandIn.JSON.createObjectNode();
      task.put("name", taskName);
      task.put("start_ts", ts);
      task.put("storage", storage);
      task.put("pd", pd);
      task.put("paused", false);
      try (S3Client s3 = s3()) {
        s3.putObject(b -> b.bucket(bucket()).key(prefix() + "backup.lock"),
            RequestBody.fromString("DO NOT DELETE\nThis file exists to remind other backup jobs won't use this path"));
        s3.putObject(b -> b.bucket(bucket()).key(prefix() + "v1/backupmeta/" + ts + ".meta"),
            RequestBody.fromBytes(BrStandIn.JSON.writeValueAsBytes(task)));
      }
      save(task);
      done("log start", task);
      return 0;
    }
  }

  @Command(name = "stop")
  static final class Stop extends OnTask {
    @Override
    public Integer call() throws Exception {
      behave();
      ObjectNode task = task(taskName);
      Files.delete(tasks().resolve(taskName + ".json"));
      pdEtcd().ifPresent(etcd -> etcd.delete(pauseKey(taskName)));
      done("log stop", task);
      return 0;
    }
  }

  @Command(name = "pause")
  static final class Pause extends OnTask {
    @Override
    public Integer call() throws Exception {
      behave();
      ObjectNode task = task(taskName);
      if (task.path("paused").asBoolean()) {
        throw new IllegalStateException("[BR:KV:ErrKVUnknown]The task " + taskName + " is paused already.");
      }
      task.put("paused", true);
      save(task);
      byte[] mark = manualPause();
      pdEtcd().ifPresent(etcd -> etcd.put(pauseKey(taskName), mark));
      done("log pause", task);
      return 0;
    }
  }

  @Command(name = "resume")
  static final class Resume extends OnTask {
    @Override
    public Integer call() throws Exception {
      behave();
      ObjectNode task = task(taskName);
      if (!task.path("paused").asBoolean()) {
        throw new IllegalStateException("[BR:KV:ErrKVUnknown]The task " + taskName + " is active already.");
      }
      task.put("paused", false);
      save(task);
      pdEtcd().ifPresent(etcd -> etcd.delete(pauseKey(taskName)));
      done("log resume", task);
      return 0;
    }
  }

  @Command(name = "truncate")
  static final class Truncate extends BrStandIn.Connection {
    @Option(names = "--until", required = true) String until;
    @Option(names = {"-y", "--yes"}) boolean yes;

    @Override
    public Integer call() throws Exception {
      behave();
      long untilTs = BackupTimestamps.toTso(until).orElseThrow(
          () -> new IllegalArgumentException("[BR:Common:ErrInvalidArgument]invalid --until " + until));
      try (S3Client s3 = s3()) {
        try {
          s3.headObject(b -> b.bucket(bucket()).key(prefix() + "backup.lock"));
        } catch (software.amazon.awssdk.services.s3.model.S3Exception e) {
          if (e.statusCode() == 404) {
            throw new IllegalStateException("[BR:Common:ErrInvalidArgument]no log backup in " + storage);
          }
          throw e;
        }
        long before = 0;
        try {
          before = Long.parseLong(s3.getObjectAsBytes(b -> b.bucket(bucket()).key(prefix() + TRUNCATE_SAFEPOINT))
              .asString(StandardCharsets.UTF_8).trim());
        } catch (NoSuchKeyException e) {
          // nothing truncated yet
        }
        if (untilTs < before) {
          BrStandIn.OUT.println("According to the log, you have truncated backup data before " + before);
        } else {
          long ts = untilTs;
          s3.putObject(b -> b.bucket(bucket()).key(prefix() + TRUNCATE_SAFEPOINT), RequestBody.fromString(Long.toString(ts)));
        }
        BrStandIn.OUT.println("We are going to remove 0 files, until " + until + ".");
        BrStandIn.log("INFO", "stream.go:1046", "log truncate", Map.of("until", Long.toString(untilTs), "files", "0"));
      }
      return 0;
    }
  }
}
