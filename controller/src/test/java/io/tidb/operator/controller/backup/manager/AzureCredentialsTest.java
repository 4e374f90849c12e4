package io.tidb.operator.controller.backup.manager;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AzureCredentialsTest {

  private static final Map<String, String> AAD = Map.of("AZURE_CLIENT_ID", "id", "AZURE_TENANT_ID", "tenant",
      "AZURE_CLIENT_SECRET", "s3cr3t-value");

  @Test
  void upstreamsOrderSasTokenThenAzureAdThenTheSharedKey() {
    Map<String, String> all = new java.util.HashMap<>(AAD);
    all.put("AZURE_STORAGE_KEY", "k3y-value");
    all.put("AZURE_STORAGE_ACCOUNT", "fromenv");
    assertEquals(AzureCredentials.Kind.SAS_TOKEN, AzureCredentials.choose("acct", "sv=1&sig=x", all).kind());
    AzureCredentials aad = AzureCredentials.choose(null, null, all);
    assertEquals(AzureCredentials.Kind.AZURE_AD, aad.kind());
    assertEquals(List.of("fromenv", "id", "tenant", "s3cr3t-value"),
        List.of(aad.account(), aad.clientId(), aad.tenantId(), aad.clientSecret()));
    all.remove("AZURE_TENANT_ID");
    AzureCredentials key = AzureCredentials.choose("acct", "", all);
    assertEquals(AzureCredentials.Kind.SHARED_KEY, key.kind(), "Azure AD needs all three");
    assertEquals("acct", key.account(), "--azblob.account-name wins over AZURE_STORAGE_ACCOUNT");
    assertEquals("AzureCredentials[SHARED_KEY, account acct]", key.toString(), "no secret in its text");
  }

  @Test
  void whatIsMissingIsNamedNeverAValue() {
    IllegalArgumentException none = assertThrows(IllegalArgumentException.class,
        () -> AzureCredentials.choose(null, null, Map.of("AZURE_STORAGE_KEY", "k3y-value")));
    assertTrue(none.getMessage().startsWith("no Azure storage account"), none.getMessage());
    IllegalArgumentException partial = assertThrows(IllegalArgumentException.class,
        () -> AzureCredentials.choose("acct", null, Map.of("AZURE_CLIENT_ID", "id", "AZURE_CLIENT_SECRET", "s3cr3t-value")));
    assertEquals("no Azure credentials: no spec.azblob.sasToken, no AZURE_STORAGE_KEY, and of the Azure AD keys only"
        + " AZURE_CLIENT_ID, AZURE_CLIENT_SECRET (AZURE_CLIENT_ID, AZURE_TENANT_ID, AZURE_CLIENT_SECRET are needed"
        + " together) in the Secret spec.azblob.secretName", partial.getMessage());
    assertFalse(partial.getMessage().contains("s3cr3t-value"));
  }

  @Test
  void aSasSignatureNeverReachesTheOutput() {
    assertEquals("GET https://a.blob.core.windows.net/c?restype=container&sv=2024&sig=<redacted>&se=1 failed",
        AzureBlobBackupObjects.withoutSignature(
            "GET https://a.blob.core.windows.net/c?restype=container&sv=2024&sig=AbC%2Fd%3D&se=1 failed"));
    assertEquals(List.of("br", "backup", "full", "--azblob.sas-token=<redacted>", "--azblob.account-name=a"),
        BackupManagerMain.redacted(List.of("br", "backup", "full", "--azblob.sas-token=sv=1&sig=x",
            "--azblob.account-name=a")), "the backup-manager's 'running' line");
  }

  @Test
  void instanceDiscoveryOnlyForAzuresOwnAuthorities() {
    assertTrue(AzureCredentials.discoversInstance(null));
    assertTrue(AzureCredentials.discoversInstance("https://login.microsoftonline.us/"));
    assertTrue(AzureCredentials.discoversInstance("https://LOGIN.chinacloudapi.cn"));
    assertFalse(AzureCredentials.discoversInstance("https://adfs.example.com/adfs/"));
    assertFalse(AzureCredentials.discoversInstance("https://127.0.0.1:8443"));
  }
}
