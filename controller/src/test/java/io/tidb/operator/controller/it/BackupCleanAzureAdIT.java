package io.tidb.operator.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.tidb.operator.api.v1alpha1.backup.Backup;
import io.tidb.operator.testsupport.Await;
import io.tidb.operator.testsupport.ClusterAccess;
import io.tidb.operator.testsupport.WithKubeApiServer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * cleanPolicy on Azure Blob Storage with Azure AD ({@link LoopbackAzureAd}: Azurite over HTTPS
 * with OAuth, a token endpoint stand-in at {@code AZURE_AUTHORITY_HOST}): with a Secret holding a
 * service principal's AZURE_CLIENT_ID, AZURE_TENANT_ID and AZURE_CLIENT_SECRET and no shared key,
 * the clean Job's program (exactly the Job's arguments and environment, plus the two endpoints and
 * the test CA's trust store) gets a token by the client-credentials grant and deletes exactly the
 * backup's blobs; a wrong client secret keeps the Backup, and the secret is never printed.
 */
@WithKubeApiServer
class BackupCleanAzureAdIT {

  private static BackupHarness h;
  private static LoopbackAzureAd ad;

  @BeforeAll
  static void start(ClusterAccess access) throws Exception {
    ad = new LoopbackAzureAd();
    h = new BackupHarness(access, "backup-clean-azure-ad");
    h.createCluster("basic");
    secret("azure-ad", ad.clientSecret);
    secret("azure-ad-wrong", "not-the-client-secret-do-not-log");
  }

  @AfterAll
  static void stop() throws Exception {
    if (h != null) {
      h.close();
    }
    if (ad != null) {
      ad.close();
    }
  }

  private static void secret(String name, String clientSecret) {
    h.admin.secrets().inNamespace(h.namespace).resource(new SecretBuilder()
        .withNewMetadata().withName(name).withNamespace(h.namespace).endMetadata()
        .addToStringData("AZURE_STORAGE_ACCOUNT", LoopbackCloudStorage.AZURE_ACCOUNT)
        .addToStringData("AZURE_CLIENT_ID", LoopbackAzureAd.CLIENT_ID)
        .addToStringData("AZURE_TENANT_ID", LoopbackAzureAd.TENANT)
        .addToStringData("AZURE_CLIENT_SECRET", clientSecret)
        .build()).create();
  }



  private static JobAsKubelet.Run runClean(String name) throws Exception {
    Job clean = h.awaitJob("clean-" + name);
    return h.kubelet.runAndReport(clean, new JobAsKubelet.Kubelet(Map.of("AZURE_STORAGE_BLOB_ENDPOINT", ad.blobEndpoint,
        "AZURE_AUTHORITY_HOST", ad.authorityHost), ad.trustFlags()));
  }

  @Test
  void azureAdCredentialsCleanTheBackup() throws Exception {
    ad.put("ad-backups", BackupHarness.backupObjects("team/ad-a", 3));
    ad.put("ad-backups", BackupHarness.backupObjects("team/ad-b", 1));
    h.failedBackup("ad-a", "azblob: {container: ad-backups, prefix: team/ad-a, secretName: azure-ad}");

    h.admin.resources(Backup.class).inNamespace(h.namespace).withName("ad-a").delete();
    Job clean = h.awaitJob("clean-ad-a");
    assertEquals(List.of("AZURE_STORAGE_ACCOUNT", "AZURE_CLIENT_ID", "AZURE_CLIENT_SECRET", "AZURE_TENANT_ID",
        "AZURE_STORAGE_KEY"), clean.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv().stream()
        .map(e -> e.getName()).toList());
    JobAsKubelet.Run run = runClean("ad-a");
    assertEquals(0, run.exitCode(), run.output() + "\ntoken endpoint: " + ad.requests);
    assertTrue(run.output().contains("clean: deleted 3 objects under azure://ad-backups/team/ad-a/, none left"),
        run.output());
    assertTrue(ad.requests.contains("POST /" + LoopbackAzureAd.TENANT + "/oauth2/v2.0/token client_id="
        + LoopbackAzureAd.CLIENT_ID + " secret right"), ad.requests.toString());
    Await.until("Backup ad-a released", Duration.ofSeconds(60), () -> h.backup("ad-a"), b -> b == null);
    assertEquals(new TreeSet<>(Set.of("team/ad-b/backup.lock")), ad.keys("ad-backups"));
    assertFalse(run.output().contains(ad.clientSecret), run.output());
  }

  @Test
  void aWrongClientSecretKeepsTheBackupAndIsNeverPrinted() throws Exception {
    ad.put("ad-wrong", BackupHarness.backupObjects("team/ad-w", 2));
    h.failedBackup("ad-w", "azblob: {container: ad-wrong, prefix: team/ad-w, secretName: azure-ad-wrong}\n"
        + "  cleanOption: {retryCount: 1}");

    h.admin.resources(Backup.class).inNamespace(h.namespace).withName("ad-w").delete();
    JobAsKubelet.Run run = runClean("ad-w");
    assertEquals(1, run.exitCode(), run.output());
    assertTrue(run.output().contains("clean failed: deleted 0 objects under azure://ad-wrong/team/ad-w/;"
        + " the rest is left: list team/ad-w/:"), run.output());
    assertFalse(run.output().contains("not-the-client-secret-do-not-log"), run.output());
    Backup kept = h.awaitBackup("ad-w", "CleanFailed", b -> BackupHarness.condition(b, "Cleaned")
        .filter(c -> "CleanFailed".equals(c.getReason())).isPresent());
    String message = BackupHarness.condition(kept, "Cleaned").orElseThrow().getMessage();
    assertFalse(message.contains("not-the-client-secret-do-not-log"), message);
    assertEquals(2, ad.keys("ad-wrong").size(), "nothing deleted without a token");
  }
}
