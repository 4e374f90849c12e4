package io.tidb.operator.api.v1alpha1.backup;

/** The storage fields of a Backup, Restore or BackupSchedule spec, as one {@link StorageProvider}. */
public final class StorageProviders {

  private StorageProviders() {}

  public static StorageProvider of(BackupSpec spec) {
    return of(spec.getS3(), spec.getGcs(), spec.getAzblob(), spec.getLocal());
  }

  public static StorageProvider of(RestoreSpec spec) {
    return of(spec.getS3(), spec.getGcs(), spec.getAzblob(), spec.getLocal());
  }

  public static StorageProvider of(BackupScheduleSpec spec) {
    return of(spec.getS3(), spec.getGcs(), spec.getAzblob(), spec.getLocal());
  }

  public static StorageProvider of(
      S3StorageProvider s3, GcsStorageProvider gcs, AzblobStorageProvider azblob, LocalStorageProvider local) {
    StorageProvider p = new StorageProvider();
    p.setS3(s3);
    p.setGcs(gcs);
    p.setAzblob(azblob);
    p.setLocal(local);
    return p;
  }

  /** Whether no provider is set. */
  public static boolean isEmpty(StorageProvider p) {
    return p.getS3() == null && p.getGcs() == null && p.getAzblob() == null && p.getLocal() == null;
  }
}
