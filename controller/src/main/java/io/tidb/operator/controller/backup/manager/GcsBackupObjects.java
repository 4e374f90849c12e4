package io.tidb.operator.controller.backup.manager;

import com.google.auth.oauth2.GoogleCredentials;
import com.google.cloud.NoCredentials;
import com.google.cloud.ServiceOptions;
import com.google.cloud.storage.Blob;
import com.google.cloud.storage.BlobId;
import com.google.cloud.storage.Storage;
import com.google.cloud.storage.StorageOptions;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A backup's objects in Google Cloud Storage, through Google's client over the JSON API.
 * Credentials: the service-account key BR gets ({@code spec.gcs.secretName}, mounted as a file),
 * else the pod's application default credentials (Workload Identity). {@code
 * STORAGE_EMULATOR_HOST} (the variable Google's clients and BR honour) points it at an emulator,
 * without credentials. The clean-up retries on its own, so the client does not.
 */
final class GcsBackupObjects implements BackupObjectStore {

  private final Storage storage;
  private final StorageLocation at;

  GcsBackupObjects(StorageLocation at, String projectId, Path credentialsFile, String emulatorHost) {
    this.at = at;
    StorageOptions.Builder options = StorageOptions.http()
        .setRetrySettings(ServiceOptions.getNoRetrySettings());
    if (projectId != null) {
      options.setProjectId(projectId);
    }
    if (emulatorHost != null) {
      options.setHost(emulatorHost.contains("://") ? emulatorHost : "http://" + emulatorHost)
          .setCredentials(NoCredentials.getInstance());
      if (projectId == null) {
        options.setProjectId("emulator");
      }
    } else if (credentialsFile != null) {
      try (InputStream in = Files.newInputStream(credentialsFile)) {
        options.setCredentials(GoogleCredentials.fromStream(in));
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read the GCS credentials file " + credentialsFile, e);
      }
    }
    this.storage = options.build().getService();
  }

  @Override
  public List<String> page(int max) {
    List<String> keys = new ArrayList<>();
    for (Blob b : storage.list(at.bucket(), Storage.BlobListOption.prefix(at.prefix()),
        Storage.BlobListOption.pageSize(max)).getValues()) {
      keys.add(b.getName());
      if (keys.size() == max) {
        break;
      }
    }
    return keys;
  }

  @Override
  public void deleteBatch(List<String> keys) {
    // One batch request; an object already gone answers false, which is what deleting wants.
    storage.delete(keys.stream().map(k -> BlobId.of(at.bucket(), k)).toList());
  }

  @Override
  public void delete(String key) {
    storage.delete(BlobId.of(at.bucket(), key));
  }

  @Override
  public void close() {
    try {
      storage.close();
    } catch (Exception e) {
      // Closing releases the client's connections; nothing is left to undo.
    }
  }
}
