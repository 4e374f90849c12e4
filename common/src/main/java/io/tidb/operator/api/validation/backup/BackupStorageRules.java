package io.tidb.operator.api.validation.backup;

import io.tidb.operator.api.v1alpha1.backup.AzblobStorageProvider;
import io.tidb.operator.api.v1alpha1.backup.GcsStorageProvider;
import io.tidb.operator.api.v1alpha1.backup.LocalStorageProvider;
import io.tidb.operator.api.v1alpha1.backup.S3StorageProvider;
import io.tidb.operator.api.v1alpha1.backup.StorageProvider;
import io.tidb.operator.api.validation.Violation;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;

/**
 * The storage of a Backup or Restore: exactly one provider, and upstream's rules for each (a bucket
 * or container, an endpoint with scheme and host, matching volume and mount names), plus a prefix
 * that is not blank when set. Pure.
 */
public final class BackupStorageRules {

  private BackupStorageRules() {}

  /** The providers that are set, by field name. */
  public static List<String> providersSet(StorageProvider storage) {
    List<String> set = new ArrayList<>();
    if (storage.getS3() != null) {
      set.add("s3");
    }
    if (storage.getGcs() != null) {
      set.add("gcs");
    }
    if (storage.getAzblob() != null) {
      set.add("azblob");
    }
    if (storage.getLocal() != null) {
      set.add("local");
    }
    return set;
  }

  /** Every violation of {@code storage}, whose fields live under {@code path} ("spec"). */
  public static List<Violation> validate(String path, StorageProvider storage) {
    List<Violation> out = new ArrayList<>();
    List<String> set = providersSet(storage);
    if (set.isEmpty()) {
      out.add(Violation.required(path + ".s3",
          "exactly one storage provider is needed: one of " + path + ".s3, " + path + ".gcs, " + path
              + ".azblob, " + path + ".local"));
    } else if (set.size() > 1) {
      out.add(Violation.forbidden(path + "." + set.get(1),
          "exactly one storage provider may be set, but " + String.join(" and ", set.stream().map(s -> path + "." + s).toList())
              + " are set"));
    }
    if (storage.getS3() != null) {
      s3(path + ".s3", storage.getS3(), out);
    }
    if (storage.getGcs() != null) {
      gcs(path + ".gcs", storage.getGcs(), out);
    }
    if (storage.getAzblob() != null) {
      azblob(path + ".azblob", storage.getAzblob(), out);
    }
    if (storage.getLocal() != null) {
      local(path + ".local", storage.getLocal(), out);
    }
    return out;
  }

  private static void s3(String path, S3StorageProvider s3, List<Violation> out) {
    if (blank(s3.getProvider())) {
      out.add(Violation.required(path + ".provider", "the S3 provider, e.g. aws, ceph or minio"));
    }
    bucket(path + ".bucket", s3.getBucket(), out);
    prefix(path + ".prefix", s3.getPrefix(), out);
    if (s3.getEndpoint() != null) {
      String endpoint = s3.getEndpoint();
      try {
        URI uri = new URI(endpoint);
        if (uri.getScheme() == null) {
          out.add(Violation.invalid(path + ".endpoint", endpoint, "needs a scheme, e.g. http://host:port"));
        } else if (uri.getHost() == null) {
          out.add(Violation.invalid(path + ".endpoint", endpoint, "needs a host, e.g. http://host:port"));
        }
      } catch (URISyntaxException e) {
        out.add(Violation.invalid(path + ".endpoint", endpoint, "must be a URL such as http://host:port"));
      }
    }
  }

  private static void gcs(String path, GcsStorageProvider gcs, List<Violation> out) {
    if (blank(gcs.getProjectId())) {
      out.add(Violation.required(path + ".projectId", "the GCP project of the bucket"));
    }
    bucket(path + ".bucket", gcs.getBucket(), out);
    prefix(path + ".prefix", gcs.getPrefix(), out);
  }

  private static void azblob(String path, AzblobStorageProvider az, List<Violation> out) {
    if (blank(az.getContainer())) {
      out.add(Violation.required(path + ".container", "the Azure Blob container holding the backups"));
    }
    prefix(path + ".prefix", az.getPrefix(), out);
  }

  private static void local(String path, LocalStorageProvider local, List<Violation> out) {
    prefix(path + ".prefix", local.getPrefix(), out);
    if (local.getVolume() == null || blank(local.getVolume().getName())) {
      out.add(Violation.required(path + ".volume.name", "the volume holding the backups"));
    }
    if (local.getVolumeMount() == null) {
      out.add(Violation.required(path + ".volumeMount", "where the volume is mounted"));
      return;
    }
    if (local.getVolume() != null && local.getVolume().getName() != null
        && !local.getVolume().getName().equals(local.getVolumeMount().getName())) {
      out.add(Violation.invalid(path + ".volumeMount.name", local.getVolumeMount().getName(),
          "must be the volume's name, \"" + local.getVolume().getName() + "\""));
    }
    String mountPath = local.getVolumeMount().getMountPath();
    if (blank(mountPath)) {
      out.add(Violation.required(path + ".volumeMount.mountPath", "an absolute path, e.g. /backup"));
    } else if (mountPath.contains(":")) {
      out.add(Violation.invalid(path + ".volumeMount.mountPath", mountPath, "must not contain ':'"));
    }
  }

  private static void bucket(String path, String bucket, List<Violation> out) {
    if (blank(bucket)) {
      out.add(Violation.required(path, "the bucket holding the backups"));
    }
  }

  private static void prefix(String path, String prefix, List<Violation> out) {
    if (prefix != null && prefix.replace("/", "").isBlank()) {
      out.add(Violation.invalid(path, prefix, "must name a folder, or be unset"));
    }
  }

  static boolean blank(String s) {
    return s == null || s.isBlank();
  }
}
