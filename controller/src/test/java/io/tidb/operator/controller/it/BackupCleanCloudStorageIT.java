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
 * cleanPolicy on Google Cloud Storage and Azure Blob Storage, against real emulators
 * (fake-gcs-server, Azurite): a backup that failed halfway left objects under its prefix; deleting
 * the Backup runs the clean Job, whose program (run with exactly the Job container's arguments and
 * environment, plus the emulator's address in the variable each SDK honours) deletes exactly those
 * objects through Google's and Azure's SDKs and nothing else; the Backup is released only after.
 * A wrong key keeps the Backup, says what is left, and never prints the key.
 */
@WithKubeApiServer
class BackupCleanCloudStorageIT {

  /** A well-formed shared key (base64) that is not the account's. */
  private static final String WRONG_KEY =
      java.util.Base64.getEncoder().encodeToString("not-the-key-do-not-log".getBytes());

  private static BackupHarness h;
  private static LoopbackCloudStorage storage;

  @BeforeAll
  static void start(ClusterAccess access) throws Exception {
    storage = new LoopbackCloudStorage();
    h = new BackupHarness(access, "backup-clean-cloud");
    h.createCluster("basic");
    secret("azure-secret", LoopbackCloudStorage.AZURE_ACCOUNT, LoopbackCloudStorage.AZURE_KEY);
    secret("azure-wrong-key", LoopbackCloudStorage.AZURE_ACCOUNT, WRONG_KEY);
  }

  @AfterAll
  static void stop() throws Exception {
    if (h != null) {
      h.close();
    }
    if (storage != null) {
      storage.close();
    }
  }

  private static void secret(String name, String account, String key) {
    h.admin.secrets().inNamespace(h.namespace).resource(new SecretBuilder()
        .withNewMetadata().withName(name).withNamespace(h.namespace).endMetadata()
        .addToStringData("AZURE_STORAGE_ACCOUNT", account).addToStringData("AZURE_STORAGE_KEY", key)
        .build()).create();
  }



  private static JobAsKubelet.Run runClean(String name, Map<String, String> emulatorEnv) throws Exception {
    Job clean = h.awaitJob("clean-" + name);
    // The clean Job talks to the storage only (no ServiceAccount): the kubelet adds nothing else.
    return h.kubelet.runAndReport(clean, new JobAsKubelet.Kubelet(emulatorEnv, List.of()));
  }

  private static List<String> args(String job) {
    return h.job(job).getSpec().getTemplate().getSpec().getContainers().get(0).getArgs();
  }

  @Test
  void gcsDeleteRemovesExactlyThatBackupsObjects() throws Exception {
    storage.gcsPut("gcs-backups", BackupHarness.backupObjects("team/gcs-a", 5));
    storage.gcsPut("gcs-backups", BackupHarness.backupObjects("team/gcs-ab", 2));
    storage.gcsPut("gcs-backups", List.of("team/gcs-a.txt", "keep-me"));
    h.failedBackup("gcs-a", "gcs: {projectId: it-project, bucket: gcs-backups, prefix: team/gcs-a}");

    h.admin.resources(Backup.class).inNamespace(h.namespace).withName("gcs-a").delete();
    h.awaitJob("clean-gcs-a");
    assertEquals(List.of("backup-manager", "clean", "--storage", "gcs://gcs-backups/team/gcs-a/",
        "--gcs.project-id=it-project"), args("clean-gcs-a"));
    JobAsKubelet.Run run = runClean("gcs-a", Map.of("STORAGE_EMULATOR_HOST", storage.gcsEndpoint));
    assertEquals(0, run.exitCode(), run.output());
    assertTrue(run.output().contains("clean: deleted 5 objects under gcs://gcs-backups/team/gcs-a/, none left"),
        run.output());
    Await.until("Backup gcs-a released", Duration.ofSeconds(60), () -> h.backup("gcs-a"), b -> b == null);
    assertEquals(new TreeSet<>(Set.of("team/gcs-ab/backup.lock", "team/gcs-ab/1/1_1001_default.sst",
        "team/gcs-a.txt", "keep-me")), storage.gcsKeys("gcs-backups"),
        "only the objects under team/gcs-a/ are gone");
  }

  @Test
  void azureDeleteRemovesExactlyThatBackupsBlobs() throws Exception {
    storage.azurePut("az-backups", BackupHarness.backupObjects("team/az-a", 4));
    storage.azurePut("az-backups", BackupHarness.backupObjects("team/az-b", 2));
    h.failedBackup("az-a", "azblob: {container: az-backups, prefix: team/az-a, secretName: azure-secret}");

    h.admin.resources(Backup.class).inNamespace(h.namespace).withName("az-a").delete();
    h.awaitJob("clean-az-a");
    assertEquals(List.of("backup-manager", "clean", "--storage", "azure://az-backups/team/az-a/"), args("clean-az-a"));
    JobAsKubelet.Run run = runClean("az-a", Map.of("AZURE_STORAGE_BLOB_ENDPOINT", storage.azureEndpoint));
    assertEquals(0, run.exitCode(), run.output());
    assertTrue(run.output().contains("clean: deleted 4 objects under azure://az-backups/team/az-a/, none left"),
        run.output());
    Await.until("Backup az-a released", Duration.ofSeconds(60), () -> h.backup("az-a"), b -> b == null);
    assertEquals(new TreeSet<>(Set.of("team/az-b/backup.lock", "team/az-b/1/1_1001_default.sst")),
        storage.azureKeys("az-backups"));
  }

  @Test
  void aWrongAzureKeyKeepsTheBackupAndSaysWhatIsLeft() throws Exception {
    storage.azurePut("az-wrong", BackupHarness.backupObjects("team/az-w", 3));
    h.failedBackup("az-w", "azblob: {container: az-wrong, prefix: team/az-w, secretName: azure-wrong-key,"
        + " storageAccount: devstoreaccount1}\n  cleanOption: {retryCount: 2}");

    h.admin.resources(Backup.class).inNamespace(h.namespace).withName("az-w").delete();
    h.awaitJob("clean-az-w");
    assertEquals(List.of("backup-manager", "clean", "--storage", "azure://az-wrong/team/az-w/",
        "--azblob.account-name=devstoreaccount1", "--retries=2"), args("clean-az-w"));
    JobAsKubelet.Run run = runClean("az-w", Map.of("AZURE_STORAGE_BLOB_ENDPOINT", storage.azureEndpoint));
    assertEquals(1, run.exitCode(), run.output());
    assertTrue(run.output().contains("clean failed: deleted 0 objects under azure://az-wrong/team/az-w/;"
        + " the rest is left: list team/az-w/:"), run.output());
    assertTrue(run.output().contains("(attempt 2 of 2)"), run.output());
    assertFalse(run.output().contains(WRONG_KEY), "the key is never printed: " + run.output());
    Backup kept = h.awaitBackup("az-w", "CleanFailed", b -> BackupHarness.condition(b, "Cleaned")
        .filter(c -> "CleanFailed".equals(c.getReason())).isPresent());
    String message = BackupHarness.condition(kept, "Cleaned").orElseThrow().getMessage();
    assertTrue(message.contains("the rest is left"), message);
    assertFalse(message.contains(WRONG_KEY), message);
    assertEquals(3, storage.azureKeys("az-wrong").size(), "nothing deleted with a wrong key");
  }

  /** Every Event of the test's namespace, as text. */
  private static String events() {
    return h.admin.v1().events().inNamespace(h.namespace).list().getItems().stream()
        .map(e -> e.getReason() + " " + e.getMessage()).toList().toString();
  }

  @Test
  void aSasTokenAloneCleansAndNeverShowsItsSignature() throws Exception {
    String sas = storage.azureSas("rld");
    String signature = java.net.URLDecoder.decode(sas.replaceAll(".*sig=([^&]*).*", "$1"),
        java.nio.charset.StandardCharsets.UTF_8);
    storage.azurePut("az-sas", BackupHarness.backupObjects("team/az-s", 3));
    storage.azurePut("az-sas", BackupHarness.backupObjects("team/az-t", 1));
    h.failedBackup("az-s", "azblob: {container: az-sas, prefix: team/az-s, storageAccount: devstoreaccount1,"
        + " sasToken: \"" + sas + "\"}");

    h.admin.resources(Backup.class).inNamespace(h.namespace).withName("az-s").delete();
    h.awaitJob("clean-az-s");
    assertEquals(List.of("backup-manager", "clean", "--storage", "azure://az-sas/team/az-s/",
        "--azblob.account-name=devstoreaccount1", "--azblob.sas-token=" + sas), args("clean-az-s"));
    assertEquals(List.of("AZURE_STORAGE_ACCOUNT"), h.job("clean-az-s").getSpec().getTemplate().getSpec()
        .getContainers().get(0).getEnv().stream().map(e -> e.getName()).toList(), "no Secret: the token is all it needs");
    JobAsKubelet.Run run = runClean("az-s", Map.of("AZURE_STORAGE_BLOB_ENDPOINT", storage.azureEndpoint));
    assertEquals(0, run.exitCode(), run.output());
    assertTrue(run.output().contains("clean: deleted 3 objects under azure://az-sas/team/az-s/, none left"), run.output());
    Await.until("Backup az-s released", Duration.ofSeconds(60), () -> h.backup("az-s"), b -> b == null);
    assertEquals(new TreeSet<>(Set.of("team/az-t/backup.lock")), storage.azureKeys("az-sas"));
    assertFalse(run.output().contains(signature), run.output());
    assertFalse(events().contains(signature), events());
  }

  @Test
  void aSasTokenWithoutDeleteKeepsTheBackupAndNeverShowsItsSignature() throws Exception {
    String sas = storage.azureSas("rl");
    String signature = java.net.URLDecoder.decode(sas.replaceAll(".*sig=([^&]*).*", "$1"),
        java.nio.charset.StandardCharsets.UTF_8);
    storage.azurePut("az-ro", BackupHarness.backupObjects("team/az-r", 2));
    h.failedBackup("az-r", "azblob: {container: az-ro, prefix: team/az-r, storageAccount: devstoreaccount1,"
        + " sasToken: \"" + sas + "\"}\n  cleanOption: {retryCount: 1}");

    h.admin.resources(Backup.class).inNamespace(h.namespace).withName("az-r").delete();
    JobAsKubelet.Run run = runClean("az-r", Map.of("AZURE_STORAGE_BLOB_ENDPOINT", storage.azureEndpoint));
    assertEquals(1, run.exitCode(), run.output());
    assertTrue(run.output().contains("clean failed: deleted 0 objects under azure://az-ro/team/az-r/;"
        + " the rest is left: delete 2 objects: HTTP 403"), run.output());
    Backup kept = h.awaitBackup("az-r", "CleanFailed", b -> BackupHarness.condition(b, "Cleaned")
        .filter(c -> "CleanFailed".equals(c.getReason())).isPresent());
    String message = BackupHarness.condition(kept, "Cleaned").orElseThrow().getMessage();
    assertTrue(message.contains("HTTP 403"), message);
    assertFalse(message.contains(signature), message);
    assertFalse(run.output().contains(signature), run.output());
    assertFalse(events().contains(signature), events());
    assertEquals(2, storage.azureKeys("az-ro").size(), "nothing deleted without the delete permission");
  }
}
