package io.tidb.operator.controller.backup;

import io.tidb.operator.api.v1alpha1.backup.AzblobStorageProvider;
import io.tidb.operator.api.v1alpha1.backup.GcsStorageProvider;
import io.tidb.operator.api.v1alpha1.backup.LocalStorageProvider;
import io.tidb.operator.api.v1alpha1.backup.S3StorageProvider;
import io.tidb.operator.api.v1alpha1.backup.StorageProvider;
import java.util.ArrayList;
import java.util.List;

/**
 * BR's view of a storage provider: the {@code --storage} URL (also the Backup's {@code
 * status.backupPath}, as upstream's) and the provider's flags. Credentials never appear here: they
 * reach BR as environment variables. Pure.
 */
public final class StorageUrls {

  private StorageUrls() {}

  /** {@code s3://bucket/prefix}, {@code gcs://bucket/prefix/}, {@code azure://container/prefix/}, {@code local:///mount/prefix}. */
  public static String url(StorageProvider p) {
    if (p.getS3() != null) {
      return "s3://" + join(p.getS3().getBucket(), p.getS3().getPrefix());
    }
    if (p.getGcs() != null) {
      return "gcs://" + join(p.getGcs().getBucket(), p.getGcs().getPrefix()) + "/";
    }
    if (p.getAzblob() != null) {
      return "azure://" + join(p.getAzblob().getContainer(), p.getAzblob().getPrefix()) + "/";
    }
    LocalStorageProvider local = p.getLocal();
    return "local://" + join(local.getVolumeMount().getMountPath(), local.getPrefix());
  }

  /** BR's flags for the provider, e.g. {@code --s3.endpoint=...}. */
  public static List<String> flags(StorageProvider p) {
    List<String> out = new ArrayList<>();
    S3StorageProvider s3 = p.getS3();
    if (s3 != null) {
      flag(out, "--s3.endpoint", s3.getEndpoint());
      flag(out, "--s3.region", s3.getRegion());
      flag(out, "--s3.provider", s3.getProvider());
      flag(out, "--s3.storage-class", s3.getStorageClass());
      flag(out, "--s3.sse", s3.getSse());
      flag(out, "--s3.acl", s3.getAcl());
      if (s3.getForcePathStyle() != null) {
        out.add("--s3.force-path-style=" + s3.getForcePathStyle());
      }
    }
    GcsStorageProvider gcs = p.getGcs();
    if (gcs != null) {
      flag(out, "--gcs.storage-class", gcs.getStorageClass());
      flag(out, "--gcs.predefined-acl", gcs.getObjectAcl());
      if (gcs.getSecretName() != null) {
        out.add("--gcs.credentials-file=" + BackupJob.GCS_CREDENTIALS_DIR + "/credentials");
      }
    }
    AzblobStorageProvider az = p.getAzblob();
    if (az != null) {
      flag(out, "--azblob.access-tier", az.getAccessTier());
      flag(out, "--azblob.account-name", az.getStorageAccount());
      flag(out, "--azblob.sas-token", az.getSasToken());
    }
    return out;
  }

  private static void flag(List<String> out, String name, String value) {
    if (value != null && !value.isEmpty()) {
      out.add(name + "=" + value);
    }
  }

  private static String join(String base, String prefix) {
    String b = trimSlashes(base);
    String pre = prefix == null ? "" : trimSlashes(prefix);
    String lead = base.startsWith("/") ? "/" : "";
    return lead + (pre.isEmpty() ? b : b + "/" + pre);
  }

  private static String trimSlashes(String s) {
    int from = 0;
    int to = s.length();
    while (from < to && s.charAt(from) == '/') {
      from++;
    }
    while (to > from && s.charAt(to - 1) == '/') {
      to--;
    }
    return s.substring(from, to);
  }
}
