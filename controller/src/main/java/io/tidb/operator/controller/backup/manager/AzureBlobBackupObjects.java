package io.tidb.operator.controller.backup.manager;

import com.azure.identity.ClientSecretCredentialBuilder;
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
 * A backup's blobs in Azure Blob Storage, through Azure's SDK, with the credential {@link
 * AzureCredentials} chooses as upstream: a SAS token, Azure AD (a service principal's client
 * secret, through azure-identity's {@code ClientSecretCredential}; {@code AZURE_AUTHORITY_HOST}
 * names another authority than Microsoft's public one, used without instance discovery when it is
 * not one of Azure's own), or the shared key. The endpoint is the
 * account's public one, {@code https://<account>.blob.core.windows.net}, unless {@code
 * AZURE_STORAGE_BLOB_ENDPOINT} names another (an emulator, a sovereign cloud). Blobs are deleted
 * one by one: a page is one batch of single deletes.
 */
final class AzureBlobBackupObjects implements BackupObjectStore {

  private final BlobContainerClient container;
  private final StorageLocation at;

  AzureBlobBackupObjects(StorageLocation at, AzureCredentials credentials, String endpoint, String authorityHost) {
    this.at = at;
    BlobServiceClientBuilder builder = new BlobServiceClientBuilder()
        .endpoint(endpoint != null ? endpoint : "https://" + credentials.account() + ".blob.core.windows.net")
        // One try per request: the clean-up retries on its own, with its own backoff.
        .retryOptions(new RequestRetryOptions(RetryPolicyType.FIXED, 1, (Integer) null, null, null, null));
    switch (credentials.kind()) {
      case SAS_TOKEN -> builder.sasToken(credentials.sasToken());
      case AZURE_AD -> {
        ClientSecretCredentialBuilder aad = new ClientSecretCredentialBuilder()
            .tenantId(credentials.tenantId()).clientId(credentials.clientId()).clientSecret(credentials.clientSecret());
        if (authorityHost != null && !authorityHost.isEmpty()) {
          aad.authorityHost(authorityHost);
        }
        if (!AzureCredentials.discoversInstance(authorityHost)) {
          aad.disableInstanceDiscovery();
        }
        builder.credential(aad.build());
      }
      case SHARED_KEY -> builder.credential(new StorageSharedKeyCredential(credentials.account(), credentials.sharedKey()));
    }
    this.container = builder.buildClient().getBlobContainerClient(at.bucket());
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
    return withoutSignature(BackupObjectStore.super.explain(e));
  }

  /** A message with a SAS's signature ({@code sig=...}) in a URL, with the signature left out. */
  static String withoutSignature(String message) {
    return message.replaceAll("(?i)([?&]sig=)[^&\\s\"']*", "$1<redacted>");
  }

  @Override
  public void close() {
    // The SDK's clients hold no resource that needs closing.
  }
}
