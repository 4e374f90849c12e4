package io.tidb.operator.controller.backup.manager;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code backup-manager clean}: deletes exactly one backup's data, every object under the
 * backup's prefix ({@code s3://}, {@code gcs://}, {@code azure://}, through each storage's own
 * SDK), or every file under a local path, a page at a time, each request retried with backoff.
 * The last line says how much was deleted and what is left; it becomes the pod's termination
 * message, which the controller shows in the Backup's status.
 */
@Command(name = "clean", description = "Delete one Backup's data from its storage (cleanPolicy Delete).")
public final class CleanCommand implements Callable<Integer> {

  @Option(names = "--storage", required = true,
      description = "s3://bucket/prefix, gcs://bucket/prefix/, azure://container/prefix/ or local:///path")
  String storage;

  @Option(names = "--s3.endpoint", description = "S3-compatible endpoint URL")
  String endpoint;

  @Option(names = "--s3.region", defaultValue = "us-east-1", description = "S3 region (default ${DEFAULT-VALUE})")
  String region;

  @Option(names = "--s3.provider", description = "S3 provider (informational)")
  String provider;

  @Option(names = "--s3.force-path-style", arity = "0..1", description = "Path-style bucket addressing")
  Boolean forcePathStyle;

  @Option(names = "--gcs.project-id", description = "GCS project")
  String gcsProject;

  @Option(names = "--gcs.credentials-file", description = "GCS service-account key file")
  Path gcsCredentials;

  @Option(names = "--azblob.account-name", description = "Azure storage account (else AZURE_STORAGE_ACCOUNT)")
  String azureAccount;

  @Option(names = "--azblob.sas-token", description = "Azure SAS token (spec.azblob.sasToken); else Azure AD or the shared key")
  String azureSasToken;

  @Option(names = "--retries", defaultValue = "5", description = "Attempts per request (default ${DEFAULT-VALUE})")
  int retries;

  @Option(names = "--page-size", defaultValue = "1000", description = "Objects listed and deleted per batch")
  int pageSize;

  @Option(names = "--single", description = "Delete objects one by one instead of in batches")
  boolean single;

  @Option(names = "--backoff-millis", defaultValue = "500", description = "First retry delay; doubles each retry")
  long backoffMillis;

  private final PrintStream out = System.out;

  @Override
  public Integer call() throws Exception {
    StorageLocation.Result parsed = StorageLocation.parse(storage);
    if (parsed.location().isEmpty()) {
      out.println("clean failed: " + parsed.refusal());
      return 2;
    }
    StorageLocation at = parsed.location().get();
    if ("local".equals(at.scheme())) {
      return cleanLocal(Path.of(at.prefix()));
    }
    BackupObjectStore store;
    try {
      store = open(at);
    } catch (RuntimeException e) {
      out.println("clean failed: cannot reach " + storage + ": " + e.getMessage() + "; nothing was deleted");
      return 2;
    }
    long deleted = 0;
    try (store) {
      while (true) {
        List<String> page = retried(store, "list " + at.prefix(), () -> store.page(pageSize));
        if (page.isEmpty()) {
          break;
        }
        if (!single) {
          try {
            retried(store, "delete " + page.size() + " objects", () -> {
              store.deleteBatch(page);
              return null;
            });
            deleted += page.size();
            continue;
          } catch (BackupObjectStore.BatchUnsupportedException e) {
            out.println("clean: the server does not implement batch deletion; deleting objects one by one");
            single = true;
          }
        }
        for (String key : page) {
          retried(store, "delete " + key, () -> {
            store.delete(key);
            return null;
          });
          deleted++;
        }
      }
    } catch (CleanFailed e) {
      out.println("clean failed: deleted " + deleted + " objects under " + storage + "; the rest is left: " + e.getMessage());
      return 1;
    }
    out.println("clean: deleted " + deleted + " objects under " + storage + ", none left");
    return 0;
  }

  private BackupObjectStore open(StorageLocation at) {
    switch (at.scheme()) {
      case "s3":
        return new S3BackupObjects(at, endpoint, region, forcePathStyle);
      case "gcs":
        return new GcsBackupObjects(at, gcsProject, gcsCredentials, System.getenv("STORAGE_EMULATOR_HOST"));
      case "azure":
        return new AzureBlobBackupObjects(at, AzureCredentials.choose(azureAccount, azureSasToken, System.getenv()),
            System.getenv("AZURE_STORAGE_BLOB_ENDPOINT"), System.getenv("AZURE_AUTHORITY_HOST"));
      default:
        throw new IllegalArgumentException("no object store for " + at.scheme());
    }
  }

  private int cleanLocal(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      out.println("clean: " + dir + " does not exist, none left");
      return 0;
    }
    List<Path> all;
    try (Stream<Path> walk = Files.walk(dir)) {
      all = new ArrayList<>(walk.sorted(Comparator.reverseOrder()).toList());
    }
    long files = 0;
    for (Path p : all) {
      if (Files.isRegularFile(p)) {
        files++;
      }
      Files.delete(p);
    }
    out.println("clean: deleted " + files + " files under " + dir + ", none left");
    return 0;
  }

  private <T> T retried(BackupObjectStore store, String what, Supplier<T> call) {
    long delay = backoffMillis;
    String last = null;
    for (int attempt = 1; attempt <= Math.max(1, retries); attempt++) {
      try {
        return call.get();
      } catch (BackupObjectStore.BatchUnsupportedException e) {
        throw e;
      } catch (RuntimeException e) {
        last = store.explain(e);
        out.println("clean: " + what + " failed (attempt " + attempt + " of " + retries + "): " + last);
        if (attempt < retries) {
          try {
            Thread.sleep(delay);
          } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
            break;
          }
          delay *= 2;
        }
      }
    }
    throw new CleanFailed(what + ": " + (last == null ? "interrupted" : last));
  }

  private static final class CleanFailed extends RuntimeException {
    private static final long serialVersionUID = 1L;

    CleanFailed(String message) {
      super(message);
    }
  }
}
