package io.tidb.operator.controller.backup.manager;

import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.BlobServiceClientBuilder;
import com.azure.storage.blob.models.BlobItem;
import com.azure.storage.blob.models.BlobStorageException;
import com.azure.storage.blob.models.ListBlobsOptions;
import com.azure.storage.common.StorageSharedKeyCredential;
import com.azure.storage.common.policy.RequestRetryOptions;
import com.azure.storage.common.policy.RetryPolicyType;
import java.util.ArrayList;
import java.util.List;

/**
 * A backup's blobs in Azure Blob Storage, through Azure's SDK, with the shared key BR gets ({@code
 * AZURE_STORAGE_ACCOUNT} and {@code AZURE_STORAGE_KEY} from {@code spec.azblob.secretName}; the
 * account may also come from {@code spec.azblob.storageAccount}). The endpoint is the account's
 * public one, {@code https://<account>.blob.core.windows.net}, unless {@code
 * AZURE_STORAGE_BLOB_ENDPOINT} names another (an emulator, a sovereign cloud). Blobs are deleted
 * one by one: a page is one batch of single deletes.
 */
final class AzureBlobBackupObjects implements BackupObjectStore {

  private final BlobContainerClient container;
  private final StorageLocation at;

  AzureBlobBackupObjects(StorageLocation at, String account, String key, String endpoint) {
    this.at = at;
    if (account == null || account.isEmpty()) {
      throw new IllegalArgumentException("no Azure storage account: set spec.azblob.storageAccount or"
          + " AZURE_STORAGE_ACCOUNT in the Secret spec.azblob.secretName");
    }
    if (key == null || key.isEmpty()) {
      throw new IllegalArgumentException("no Azure storage key: AZURE_STORAGE_KEY is not in the Secret"
          + " spec.azblob.secretName (the clean-up authenticates with the account's shared key)");
    }
    this.container = new BlobServiceClientBuilder()
        .endpoint(endpoint != null ? endpoint : "https://" + account + ".blob.core.windows.net")
        .credential(new StorageSharedKeyCredential(account, key))
        // One try per request: the clean-up retries on its own, with its own backoff.
        .retryOptions(new RequestRetryOptions(RetryPolicyType.FIXED, 1, (Integer) null, null, null, null))
        .buildClient()
        .getBlobContainerClient(at.bucket());
  }

  @Override
  public List<String> page(int max) {
    List<String> keys = new ArrayList<>();
    var pages = container.listBlobs(new ListBlobsOptions().setPrefix(at.prefix()).setMaxResultsPerPage(max), null)
        .iterableByPage().iterator();
    if (pages.hasNext()) {
      for (BlobItem item : pages.next().getValue()) {
        keys.add(item.getName());
      }
    }
    return keys;
  }

  @Override
  public void deleteBatch(List<String> keys) {
    keys.forEach(this::delete);
  }

  @Override
  public void delete(String key) {
    container.getBlobClient(key).deleteIfExists();
  }

  /** {@code HTTP 403 AuthenticationFailed}: the status and Azure's error code, not its XML body. */
  @Override
  public String explain(RuntimeException e) {
    if (e instanceof BlobStorageException b) {
      return "HTTP " + b.getStatusCode() + " " + b.getErrorCode();
    }
    return BackupObjectStore.super.explain(e);
  }

  @Override
  public void close() {
    // The SDK's clients hold no resource that needs closing.
  }
}
