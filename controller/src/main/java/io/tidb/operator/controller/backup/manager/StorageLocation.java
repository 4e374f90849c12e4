package io.tidb.operator.controller.backup.manager;

import java.net.URI;
import java.util.Optional;

/**
 * Where one backup's data lies, parsed from the Backup's {@code status.backupPath} (BR's {@code
 * --storage} URL): the store ({@code s3}, {@code gcs}, {@code azure}, {@code local}), the bucket
 * or container, and the key prefix every object of that backup starts with. Pure.
 *
 * @param scheme the URL scheme
 * @param bucket the bucket (S3, GCS) or container (Azure); for {@code local} the empty string
 * @param prefix {@code team/backup-1/}: never empty, always ends with {@code /}; for {@code local}
 *     the directory
 */
public record StorageLocation(String scheme, String bucket, String prefix) {

  /** The schemes the clean-up deletes from. */
  public static final java.util.List<String> SCHEMES = java.util.List.of("s3", "gcs", "azure", "local");

  /**
   * Parses {@code storage}; empty with the reason when it names no scheme the clean-up knows or
   * no prefix (deleting a whole bucket is refused: a Backup's data is never a whole bucket).
   */
  public static Result parse(String storage) {
    URI uri;
    try {
      uri = URI.create(storage);
    } catch (IllegalArgumentException e) {
      return Result.refused("storage " + storage + " is not a URL: " + e.getMessage());
    }
    String scheme = uri.getScheme();
    if (scheme == null || !SCHEMES.contains(scheme)) {
      return Result.refused("storage " + storage + " is not supported; one of s3://, gcs://, azure://, local://");
    }
    if ("local".equals(scheme)) {
      String dir = uri.getPath();
      if (dir == null || dir.replace("/", "").isEmpty()) {
        return Result.refused("refusing to delete " + storage + ": it names no directory below /");
      }
      return Result.of(new StorageLocation(scheme, "", dir));
    }
    String bucket = uri.getHost() != null ? uri.getHost() : uri.getAuthority();
    if (bucket == null || bucket.isEmpty()) {
      return Result.refused("storage " + storage + " names no bucket");
    }
    String path = uri.getPath() == null ? "" : uri.getPath().replaceAll("^/+", "").replaceAll("/+$", "");
    if (path.isEmpty()) {
      return Result.refused("refusing to delete a whole bucket: " + storage + " names no prefix");
    }
    return Result.of(new StorageLocation(scheme, bucket, path + "/"));
  }

  /** A location, or why there is none. */
  public record Result(Optional<StorageLocation> location, String refusal) {
    static Result of(StorageLocation l) {
      return new Result(Optional.of(l), null);
    }

    static Result refused(String why) {
      return new Result(Optional.empty(), why);
    }
  }
}
