package io.tidb.operator.controller.backup.brstandin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintStream;
import java.net.URI;
import java.security.MessageDigest;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

/**
 * A stand-in for BR (test infrastructure only): accepts BR's command line for {@code br backup
 * full|db|table} and {@code br restore full|db|table} with S3 storage, writes real backup files and a
 * {@code backupmeta} (this stand-in's JSON, listing every file with its size and SHA-256, the
 * cluster's PD address and the BackupTS) through the AWS SDK, reads them back on restore and
 * checks every file, and prints BR's log format, ending with BR's success summary line or BR's
 * {@code Error:} line.
 *
 * <p>Told what to do by environment: {@code BR_STANDIN_FAIL=<message>} fails with that error,
 * {@code BR_STANDIN_HANG=true} never finishes, {@code BR_STANDIN_DELAY_MS} is slow,
 * {@code BR_STANDIN_FILES} sets how many data files a backup writes (default 3), {@code
 * BR_STANDIN_RECORD=<file>} appends every command line it is given to that file, {@code
 * BR_STANDIN_CLUSTER_TLS=true} requires the cluster's client certificate ({@link
 * #checkClusterTls}). {@code br log
 * ...} is {@link BrLogStandIn}.
 */
@Command(name = "br", subcommands = {BrStandIn.Backup.class, BrStandIn.Restore.class, BrLogStandIn.class})
public final class BrStandIn {

  static final ObjectMapper JSON = new ObjectMapper();
  static final PrintStream OUT = System.out;
  private static final DateTimeFormatter LOG_TIME =
      DateTimeFormatter.ofPattern("yyyy/MM/dd HH:mm:ss.SSS xxx").withZone(ZoneOffset.UTC);

  public static void main(String[] args) throws java.io.IOException {
    String record = System.getenv("BR_STANDIN_RECORD");
    if (record != null) {
      java.nio.file.Files.writeString(java.nio.file.Path.of(record), "br " + String.join(" ", args) + "\n",
          java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
    }
    CommandLine cl = new CommandLine(new BrStandIn());
    cl.setParameterExceptionHandler((e, a) -> {
      OUT.println("Error: " + e.getMessage());
      return 1;
    });
    cl.setExecutionExceptionHandler((e, c, p) -> {
      log("ERROR", "main.go:58", "br failed", Map.of("error", String.valueOf(e.getMessage())));
      OUT.println("Error: " + e.getMessage());
      return 1;
    });
    System.exit(cl.execute(args));
  }

  /** Options every BR data command takes. */
  abstract static class Common extends Connection {
    @Parameters(index = "0", description = "full, db or table") String type;
    @Option(names = "--db") String db;
    @Option(names = "--table") String table;
    @Option(names = "--filter") List<String> filters;
  }

  /** Options every BR command that reaches the cluster and the storage takes. */
  abstract static class Connection implements Callable<Integer> {
    @Option(names = "--pd", required = true) String pd;
    @Option(names = "--storage", required = true) String storage;
    @Option(names = "--s3.endpoint") String endpoint;
    @Option(names = "--s3.region") String region;
    @Option(names = "--s3.provider") String provider;
    @Option(names = "--s3.storage-class") String storageClass;
    @Option(names = "--s3.sse") String sse;
    @Option(names = "--s3.acl") String acl;
    @Option(names = "--s3.force-path-style", arity = "0..1") Boolean forcePathStyle;
    @Option(names = "--concurrency") Integer concurrency;
    @Option(names = "--ratelimit") Integer rateLimit;
    @Option(names = "--checksum", arity = "0..1") Boolean checksum;
    @Option(names = "--check-requirements", arity = "0..1") Boolean checkRequirements;
    @Option(names = "--send-credentials-to-tikv", arity = "0..1") Boolean sendCredentials;
    @Option(names = "--log-level") String logLevel;
    @Option(names = "--status-addr") String statusAddr;
    @Option(names = "--ca") String ca;
    @Option(names = "--cert") String cert;
    @Option(names = "--key") String key;

    S3Client s3() {
      var b = S3Client.builder().httpClient(UrlConnectionHttpClient.create())
          .requestChecksumCalculation(software.amazon.awssdk.core.checksums.RequestChecksumCalculation.WHEN_REQUIRED)
          .responseChecksumValidation(software.amazon.awssdk.core.checksums.ResponseChecksumValidation.WHEN_REQUIRED)
          .region(Region.of(region == null ? "us-east-1" : region));
      if (endpoint != null) {
        b.endpointOverride(URI.create(endpoint));
      }
      return b.forcePathStyle(forcePathStyle == null || forcePathStyle).build();
    }

    String bucket() {
      return URI.create(storage).getHost();
    }

    String prefix() {
      String p = URI.create(storage).getPath();
      p = p == null ? "" : p.replaceAll("^/+", "").replaceAll("/+$", "");
      return p.isEmpty() ? "" : p + "/";
    }

    void behave() throws Exception {
      checkClusterTls(ca, cert, key);
      String delay = System.getenv("BR_STANDIN_DELAY_MS");
      if (delay != null) {
        Thread.sleep(Long.parseLong(delay));
      }
      if ("true".equals(System.getenv("BR_STANDIN_HANG"))) {
        log("INFO", "progress.go:171", "waiting for TiKV", Map.of());
        Thread.sleep(Long.MAX_VALUE);
      }
      String fail = System.getenv("BR_STANDIN_FAIL");
      if (fail != null) {
        throw new IllegalStateException(fail);
      }
    }
  }

  /**
   * With {@code BR_STANDIN_CLUSTER_TLS=true} (the cluster has TLS) BR must be given the client
   * certificate, as BR needs it to reach PD and TiKV: {@code --ca}, {@code --cert} and {@code --key}
   * must name readable PEM files, the certificate signed by the CA and the key its own (a
   * signature made with the key verifies with the certificate); otherwise BR's error.
   */
  static void checkClusterTls(String ca, String cert, String key) throws Exception {
    if (!"true".equals(System.getenv("BR_STANDIN_CLUSTER_TLS"))) {
      return;
    }
    if (ca == null || cert == null || key == null) {
      throw new IllegalStateException("[BR:Common:ErrInvalidArgument]the cluster has TLS but --ca, --cert and --key"
          + " were not all given (ca=" + ca + ", cert=" + cert + ", key=" + key + ")");
    }
    var caCert = io.tidb.operator.certs.Pem.decodeCertificate(java.nio.file.Files.readString(java.nio.file.Path.of(ca)));
    var own = io.tidb.operator.certs.Pem.decodeCertificate(java.nio.file.Files.readString(java.nio.file.Path.of(cert)));
    var privateKey = io.tidb.operator.certs.Pem.decodePrivateKey(java.nio.file.Files.readString(java.nio.file.Path.of(key)));
    own.verify(caCert.getPublicKey());
    String algorithm = "EC".equals(privateKey.getAlgorithm()) ? "SHA256withECDSA" : "SHA256withRSA";
    java.security.Signature signer = java.security.Signature.getInstance(algorithm);
    signer.initSign(privateKey);
    signer.update(new byte[] {1, 2, 3});
    byte[] signature = signer.sign();
    java.security.Signature verifier = java.security.Signature.getInstance(algorithm);
    verifier.initVerify(own.getPublicKey());
    verifier.update(new byte[] {1, 2, 3});
    if (!verifier.verify(signature)) {
      throw new IllegalStateException("[BR:Common:ErrInvalidArgument]--key " + key + " is not the key of --cert " + cert);
    }
    log("INFO", "tls.go:63", "cluster TLS", Map.of("ca", ca, "cert", cert, "key", key));
  }

  @Command(name = "backup")
  static final class Backup extends Common {
    @Option(names = "--backupts") Long backupTs;
    @Option(names = "--timeago") String timeAgo;
    @Option(names = "--gcttl") String gcTtl;

    @Override
    public Integer call() throws Exception {
      String name = title(type) + " Backup";
      log("INFO", "backup.go:291", "context", Map.of("pd", pd, "storage", storage));
      if (!storage.startsWith("s3://")) {
        throw new IllegalArgumentException("storage " + storage + " not supported by the BR stand-in");
      }
      long started = System.nanoTime();
      long ts = backupTs != null ? backupTs : Instant.now().toEpochMilli() << 18;
      behave();
      int files = Integer.parseInt(System.getenv().getOrDefault("BR_STANDIN_FILES", "3"));
      try (S3Client s3 = s3()) {
        String metaKey = prefix() + "backupmeta";
        try {
          s3.headObject(b -> b.bucket(bucket()).key(metaKey));
          throw new IllegalStateException("[BR:Common:ErrInvalidArgument]backup meta file exists in " + storage
              + ", there may be some backup files in the path already, please specify a correct backup directory!");
        } catch (software.amazon.awssdk.services.s3.model.S3Exception e) {
          if (e.statusCode() != 404) {
            throw e;
          }
        }
        s3.putObject(b -> b.bucket(bucket()).key(prefix() + "backup.lock"),
            RequestBody.fromString("DO NOT DELETE\nThis file exists to remind other backup jobs won't use this path"));
        Random random = new Random(ts);
        ObjectNode meta = JSON.createObjectNode();
        meta.put("cluster_version", "v8.5.7");
        meta.put("pd", pd);
        meta.put("end_version", ts);
        meta.put("type", type);
        if (db != null) {
          meta.put("db", db);
        }
        ArrayNode list = meta.putArray("files");
        long size = 0;
        for (int i = 1; i <= files; i++) {
          byte[] data = new byte[1024 + random.nextInt(4096)];
          random.nextBytes(data);
          String key = "1/" + i + "_" + (1000 + i) + "_default.sst";
          s3.putObject(b -> b.bucket(bucket()).key(prefix() + key), RequestBody.fromBytes(data));
          list.addObject().put("name", key).put("size", data.length).put("sha256", sha256(data));
          size += data.length;
          log("INFO", "client.go:954", "backup range completed", Map.of("range", key));
        }
        byte[] metaBytes = JSON.writeValueAsBytes(meta);
        s3.putObject(b -> b.bucket(bucket()).key(metaKey), RequestBody.fromBytes(metaBytes));
        size += metaBytes.length;
        double took = (System.nanoTime() - started) / 1e9;
        summary(name, List.of("total-ranges", files, "ranges-succeed", files, "ranges-failed", 0,
            "backup-checksum", "1.2ms", "backup-fast-checksum", "0.8ms", "backup-total-ranges", files,
            "total-take", String.format("%.3fs", took), "BackupTS", ts, "total-kv", files * 100,
            "total-kv-size", size + "B", "average-speed", "1MB/s",
            "backup-data-size(after-compressed)", size + "B", "Size", size));
      }
      return 0;
    }
  }

  @Command(name = "restore")
  static final class Restore extends Common {
    @Option(names = "--online", arity = "0..1") Boolean online;
    @Option(names = "--full-backup-storage") String fullBackupStorage;
    @Option(names = "--restored-ts") String restoredTs;
    @Option(names = "--start-ts") String startTs;

    @Override
    public Integer call() throws Exception {
      if ("point".equals(type)) {
        return BrLogStandIn.restorePoint(this, fullBackupStorage, restoredTs, startTs);
      }
      String name = title(type) + " Restore";
      log("INFO", "restore.go:712", "context", Map.of("pd", pd, "storage", storage));
      long started = System.nanoTime();
      behave();
      try (S3Client s3 = s3()) {
        FullBackup full = readFullBackup(s3, storage);
        double took = (System.nanoTime() - started) / 1e9;
        long restoreTs = Instant.now().toEpochMilli() << 18;
        summary(name, List.of("total-ranges", full.files(), "ranges-succeed", full.files(), "ranges-failed", 0,
            "split-region", "1ms", "restore-ranges", full.files(), "total-take", String.format("%.3fs", took),
            "restore-data-size(after-compressed)", full.size() + "B", "Size", full.size(),
            "BackupTS", full.backupTs(), "RestoreTS", restoreTs, "total-kv", full.files() * 100,
            "total-kv-size", full.size() + "B", "average-speed", "1MB/s"));
      }
      return 0;
    }
  }

  /** A full backup read back and checked: its BackupTS, files and bytes. */
  record FullBackup(long backupTs, int files, long size) {}

  /** Reads the backupmeta at {@code url} and every file it lists, checking size and SHA-256. */
  static FullBackup readFullBackup(S3Client s3, String url) throws Exception {
    String bucket = URI.create(url).getHost();
    String p = URI.create(url).getPath();
    p = p == null ? "" : p.replaceAll("^/+", "").replaceAll("/+$", "");
    String prefix = p.isEmpty() ? "" : p + "/";
    JsonNode meta;
    try {
      meta = JSON.readTree(s3.getObjectAsBytes(b -> b.bucket(bucket).key(prefix + "backupmeta")).asByteArray());
    } catch (NoSuchKeyException e) {
      throw new IllegalStateException("[BR:Common:ErrInvalidArgument]backupmeta not found in " + url
          + ": the storage holds no backup");
    }
    long size = 0;
    int n = 0;
    for (JsonNode f : meta.path("files")) {
      byte[] data = s3.getObjectAsBytes(b -> b.bucket(bucket).key(prefix + f.path("name").asText())).asByteArray();
      if (data.length != f.path("size").asLong() || !sha256(data).equals(f.path("sha256").asText())) {
        throw new IllegalStateException("[BR:Restore:ErrRestoreChecksumMismatch]checksum mismatch of " + f.path("name").asText());
      }
      size += data.length;
      n++;
      log("INFO", "import.go:512", "restore file completed", Map.of("file", f.path("name").asText()));
    }
    return new FullBackup(meta.path("end_version").asLong(), n, size);
  }

  static String title(String type) {
    return switch (type) {
      case "db" -> "Database";
      case "table" -> "Table";
      default -> "Full";
    };
  }

  static void summary(String name, List<Object> kv) {
    StringBuilder b = new StringBuilder(prefix("INFO", "collector.go:77")).append(" [\"").append(name)
        .append(" success summary\"]");
    for (int i = 0; i < kv.size(); i += 2) {
      b.append(" [").append(kv.get(i)).append('=').append(kv.get(i + 1)).append(']');
    }
    OUT.println(b);
    OUT.flush();
  }

  static void log(String level, String where, String message, Map<String, String> fields) {
    StringBuilder b = new StringBuilder(prefix(level, where)).append(" [\"").append(message).append("\"]");
    fields.forEach((k, v) -> b.append(" [").append(k).append('=')
        .append(v.contains(" ") ? "\"" + v.replace("\"", "\\\"") + "\"" : v).append(']'));
    OUT.println(b);
    OUT.flush();
  }

  private static String prefix(String level, String where) {
    return "[" + LOG_TIME.format(Instant.now()) + "] [" + level + "] [" + where + "]";
  }

  static String sha256(byte[] data) throws Exception {
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
  }
}
