package io.tidb.operator.controller.backup.manager;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;
import software.amazon.awssdk.services.s3.model.Delete;
import software.amazon.awssdk.services.s3.model.DeleteObjectsResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * {@code backup-manager clean}: deletes exactly one backup's data, every object under {@code
 * s3://bucket/prefix/} through the AWS SDK (or every file under a local path), in batches, each
 * batch retried with backoff. The last line says how much was deleted and what is left; it
 * becomes the pod's termination message, which the controller shows in the Backup's status.
 */
@Command(name = "clean", description = "Delete one Backup's data from its storage (cleanPolicy Delete).")
public final class CleanCommand implements Callable<Integer> {

  @Option(names = "--storage", required = true, description = "s3://bucket/prefix or local:///path")
  String storage;

  @Option(names = "--s3.endpoint", description = "S3-compatible endpoint URL")
  String endpoint;

  @Option(names = "--s3.region", defaultValue = "us-east-1", description = "S3 region (default ${DEFAULT-VALUE})")
  String region;

  @Option(names = "--s3.provider", description = "S3 provider (informational)")
  String provider;

  @Option(names = "--s3.force-path-style", arity = "0..1", description = "Path-style bucket addressing")
  Boolean forcePathStyle;

  @Option(names = "--retries", defaultValue = "5", description = "Attempts per batch (default ${DEFAULT-VALUE})")
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
    URI uri = URI.create(storage);
    if ("local".equals(uri.getScheme())) {
      return cleanLocal(Path.of(uri.getPath()));
    }
    if (!"s3".equals(uri.getScheme())) {
      out.println("clean failed: storage " + storage + " is not supported; only s3:// and local://");
      return 2;
    }
    String bucket = uri.getHost();
    String path = uri.getPath() == null ? "" : uri.getPath().replaceAll("^/+", "").replaceAll("/+$", "");
    if (path.isEmpty()) {
      out.println("clean failed: refusing to delete a whole bucket: " + storage + " names no prefix");
      return 2;
    }
    String prefix = path + "/";
    S3ClientBuilder builder = S3Client.builder()
        .httpClient(UrlConnectionHttpClient.create())
          .requestChecksumCalculation(software.amazon.awssdk.core.checksums.RequestChecksumCalculation.WHEN_REQUIRED)
          .responseChecksumValidation(software.amazon.awssdk.core.checksums.ResponseChecksumValidation.WHEN_REQUIRED)
        .region(Region.of(region));
    if (endpoint != null) {
      builder.endpointOverride(URI.create(endpoint));
    }
    builder.forcePathStyle(forcePathStyle == null ? endpoint != null : forcePathStyle);
    long deleted = 0;
    try (S3Client s3 = builder.build()) {
      while (true) {
        List<S3Object> page = retried("list " + prefix, () -> s3.listObjectsV2(ListObjectsV2Request.builder()
            .bucket(bucket).prefix(prefix).maxKeys(pageSize).build()).contents());
        if (page.isEmpty()) {
          break;
        }
        if (!single) {
          List<ObjectIdentifier> ids = page.stream().map(o -> ObjectIdentifier.builder().key(o.key()).build()).toList();
          try {
            retried("delete " + ids.size() + " objects", () -> {
              DeleteObjectsResponse resp = s3.deleteObjects(b -> b.bucket(bucket).delete(Delete.builder().objects(ids).quiet(true).build()));
              if (resp.hasErrors() && !resp.errors().isEmpty()) {
                throw SdkException.create(resp.errors().size() + " objects not deleted, first: "
                    + resp.errors().get(0).key() + ": " + resp.errors().get(0).code(), null);
              }
              return resp;
            });
            deleted += ids.size();
            continue;
          } catch (NotImplemented e) {
            out.println("clean: the server does not implement batch deletion; deleting objects one by one");
            single = true;
          }
        }
        for (S3Object o : page) {
          retried("delete " + o.key(), () -> s3.deleteObject(b -> b.bucket(bucket).key(o.key())));
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

  private <T> T retried(String what, java.util.function.Supplier<T> call) {
    long delay = backoffMillis;
    SdkException last = null;
    for (int attempt = 1; attempt <= Math.max(1, retries); attempt++) {
      try {
        return call.get();
      } catch (SdkException e) {
        if (e instanceof S3Exception s3e && s3e.statusCode() == 501) {
          throw new NotImplemented();
        }
        last = e;
        out.println("clean: " + what + " failed (attempt " + attempt + " of " + retries + "): " + e.getMessage());
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
    throw new CleanFailed(what + ": " + (last == null ? "interrupted" : last.getMessage()));
  }

  /** The server does not implement the request (HTTP 501): not worth retrying. */
  private static final class NotImplemented extends RuntimeException {
    private static final long serialVersionUID = 1L;
  }

  private static final class CleanFailed extends RuntimeException {
    private static final long serialVersionUID = 1L;

    CleanFailed(String message) {
      super(message);
    }
  }
}
