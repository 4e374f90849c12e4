package io.tidb.operator.controller.backup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobConditionBuilder;
import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.v1alpha1.backup.Backup;
import io.tidb.operator.api.v1alpha1.backup.BackupStatus;
import io.tidb.operator.api.v1alpha1.backup.StorageProviders;
import io.tidb.operator.controller.backup.manager.BrSummaryTest;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The Backup and Restore controllers' pure decisions: BR's command line, storage URLs, Job verdicts, clean-up. */
class BackupDecisionsTest {

  private static Backup backup(String spec) {
    return ApiObjects.parse("""
        apiVersion: pingcap.com/v1alpha1
        kind: Backup
        metadata: {name: b, namespace: ns}
        spec:
        %s
        """.formatted(spec.indent(2)), Backup.class);
  }

  @Test
  void brBackupCommandLineCarriesEverySetting() {
    Backup b = backup("""
        backupType: table
        commitTs: "446543216512835585"
        tikvGCLifeTime: 72h
        tableFilter: ["db1.*", "!db1.tmp"]
        br: {cluster: basic, db: db1, table: t1, concurrency: 8, rateLimit: 100, checksum: false, timeAgo: 1h, options: [--lastbackupts=1]}
        s3: {provider: aws, region: us-west-2, bucket: bk, prefix: /a/b/, endpoint: "http://127.0.0.1:9000", sse: aws:kms, forcePathStyle: true}
        """);
    assertEquals(List.of("backup", "table", "--pd=pd:2379", "--storage=s3://bk/a/b", "--s3.endpoint=http://127.0.0.1:9000",
        "--s3.region=us-west-2", "--s3.provider=aws", "--s3.sse=aws:kms", "--s3.force-path-style=true", "--db=db1",
        "--table=t1", "--filter=db1.*", "--filter=!db1.tmp", "--backupts=446543216512835585", "--timeago=1h",
        "--gcttl=72h", "--concurrency=8", "--ratelimit=100", "--checksum=false", "--lastbackupts=1"),
        BrCommandLine.backup(b.getSpec(), "pd:2379"));
  }

  @Test
  void storageUrlsAsUpstream() {
    assertEquals("gcs://bk/p/", StorageUrls.url(StorageProviders.of(backup(
        "gcs: {projectId: x, bucket: bk, prefix: p}\nbr: {cluster: c}").getSpec())));
    assertEquals("azure://c/p/", StorageUrls.url(StorageProviders.of(backup(
        "azblob: {container: c, prefix: p}\nbr: {cluster: c}").getSpec())));
    assertEquals("local:///nfs/p", StorageUrls.url(StorageProviders.of(backup(
        "local: {prefix: p, volume: {name: v}, volumeMount: {name: v, mountPath: /nfs/}}\nbr: {cluster: c}").getSpec())));
  }

  private static Job job(String... trueConditions) {
    JobBuilder b = new JobBuilder().withNewMetadata().withName("backup-b").endMetadata().withNewStatus().endStatus();
    Job j = b.build();
    for (String c : trueConditions) {
      j.getStatus().getConditions().add(new JobConditionBuilder().withType(c).withStatus("True")
          .withReason("BackoffLimitExceeded").withMessage("Job has reached the specified backoff limit").build());
    }
    return j;
  }

  @Test
  void jobVerdicts() {
    assertEquals(BackupPhase.SCHEDULED, JobVerdicts.ofJob(job(), false, false, Optional.empty()).phase());
    JobVerdicts.Verdict notStarted = JobVerdicts.ofJob(job(), false, false, Optional.empty());
    assertTrue(JobVerdicts.keepsPrepare(BackupPhase.PREPARE, notStarted), "the backup-manager's Prepare stays");
    assertFalse(JobVerdicts.keepsPrepare(BackupPhase.SCHEDULED, notStarted));
    assertFalse(JobVerdicts.keepsPrepare(BackupPhase.PREPARE, JobVerdicts.ofJob(job(), true, false, Optional.empty())),
        "once BR started: Running");
    assertFalse(JobVerdicts.keepsPrepare(BackupPhase.PREPARE, JobVerdicts.ofJob(job("Failed"), false, false,
        Optional.empty())), "a Job that failed while preparing: Failed");
    assertEquals(BackupPhase.RUNNING, JobVerdicts.ofJob(job(), true, false, Optional.empty()).phase());
    assertEquals(BackupPhase.COMPLETE, JobVerdicts.ofJob(job("Complete"), true, true, Optional.empty()).phase());
    JobVerdicts.Verdict noResult = JobVerdicts.ofJob(job("Complete"), true, false, Optional.empty());
    assertEquals(BackupPhase.FAILED, noResult.phase());
    assertEquals(JobVerdicts.REASON_NO_RESULT, noResult.reason());
    assertEquals("backup failed: x", JobVerdicts.ofJob(job("Failed"), true, false, Optional.of("backup failed: x")).message());
    assertEquals("Job backup-b failed: BackoffLimitExceeded (Job has reached the specified backoff limit)",
        JobVerdicts.ofJob(job("Failed"), true, false, Optional.empty()).message());
    assertEquals(BackupPhase.FAILED, JobVerdicts.jobGone("backup-b").phase());
    assertEquals(Optional.of("last"), JobVerdicts.lastLine("first\nlast\n\n"));
  }

  @Test
  void cleanPolicyDecidesWhetherDataIsDeleted() {
    Backup b = backup("cleanPolicy: Retain\nbr: {cluster: c}\ns3: {provider: aws, bucket: bk, prefix: p, endpoint: \"http://127.0.0.1:1\"}");
    b.setStatus(new BackupStatus());
    b.getStatus().setBackupPath("s3://bk/p");
    b.getStatus().setPhase(BackupPhase.FAILED);
    assertFalse(BackupCleaner.needsClean(b));
    b.getSpec().setCleanPolicy("OnFailure");
    assertTrue(BackupCleaner.needsClean(b));
    b.getStatus().setPhase(BackupPhase.COMPLETE);
    assertFalse(BackupCleaner.needsClean(b));
    b.getSpec().setCleanPolicy("Delete");
    assertTrue(BackupCleaner.needsClean(b));
    b.getStatus().setBackupPath(null);
    assertFalse(BackupCleaner.needsClean(b), "nothing was ever written");
    assertEquals(List.of("backup-manager", "clean", "--storage", "s3://bk/p", "--s3.endpoint=http://127.0.0.1:1"),
        BackupCleaner.args(b));
  }

  @Test
  void theCleanJobGetsEachStoresFlagsButNoCredential() {
    assertEquals(List.of("backup-manager", "clean", "--storage", "gcs://g/team/b/", "--gcs.project-id=p",
            "--gcs.credentials-file=" + BackupJob.GCS_CREDENTIALS_DIR + "/credentials"),
        BackupCleaner.args(backup("br: {cluster: c}\ngcs: {projectId: p, bucket: g, prefix: team/b, secretName: gcs-sa}")));
    assertEquals(List.of("backup-manager", "clean", "--storage", "azure://c/team/b/", "--azblob.account-name=acct",
            "--retries=3", "--page-size=50"),
        BackupCleaner.args(backup("br: {cluster: c}\nazblob: {container: c, prefix: team/b, secretName: az,"
            + " storageAccount: acct}\ncleanOption: {retryCount: 3, pageSize: 50}")));
  }

  private static String describe(List<io.fabric8.kubernetes.api.model.EnvVar> env) {
    return env.stream().map(e -> e.getValue() != null ? e.getName() + "=" + e.getValue()
        : e.getName() + "<-" + e.getValueFrom().getSecretKeyRef().getName() + "/" + e.getValueFrom().getSecretKeyRef().getKey()
            + (Boolean.TRUE.equals(e.getValueFrom().getSecretKeyRef().getOptional()) ? "?" : "")).toList().toString();
  }

  @Test
  void azureCredentialsReachTheJobAsUpstreamPassesThem() {
    var key = StorageProviders.of(backup("br: {cluster: c}\nazblob: {container: c, secretName: az}").getSpec());
    assertEquals("[AZURE_STORAGE_ACCOUNT<-az/AZURE_STORAGE_ACCOUNT, AZURE_CLIENT_ID<-az/AZURE_CLIENT_ID?,"
        + " AZURE_CLIENT_SECRET<-az/AZURE_CLIENT_SECRET?, AZURE_TENANT_ID<-az/AZURE_TENANT_ID?,"
        + " AZURE_STORAGE_KEY<-az/AZURE_STORAGE_KEY?]", describe(BackupJob.credentials(key)),
        "Azure AD or the shared key, whichever the Secret has; BR picks Azure AD when all three are set");
    assertEquals(java.util.Map.of("az", List.of("AZURE_STORAGE_ACCOUNT")), BackupJob.secretKeys(key));

    var sas = StorageProviders.of(backup("br: {cluster: c}\nazblob: {container: c, prefix: p, storageAccount: acct,"
        + " sasToken: \"sv=2024&sig=abc\"}").getSpec());
    assertEquals("[AZURE_STORAGE_ACCOUNT=acct]", describe(BackupJob.credentials(sas)), "a SAS token needs no Secret");
    assertEquals(java.util.Map.of(), BackupJob.secretKeys(sas));
    assertEquals(List.of("--azblob.account-name=acct", "--azblob.sas-token=sv=2024&sig=abc"), StorageUrls.flags(sas));
    assertEquals("azure://c/p/", StorageUrls.url(sas), "backupPath: no token in it");
    assertEquals(List.of("backup-manager", "clean", "--storage", "azure://c/p/", "--azblob.account-name=acct",
        "--azblob.sas-token=sv=2024&sig=abc"), BackupCleaner.args(backup("br: {cluster: c}\nazblob: {container: c,"
            + " prefix: p, storageAccount: acct, sasToken: \"sv=2024&sig=abc\"}")));

    var account = StorageProviders.of(backup("br: {cluster: c}\nazblob: {container: c, secretName: az,"
        + " storageAccount: acct}").getSpec());
    assertEquals(java.util.Map.of("az", List.of()), BackupJob.secretKeys(account), "the Secret must exist, no key required");
  }

  @Test
  void theAzureSecretNeedsTheSharedKeyOrAllOfAzureAd() {
    var az = StorageProviders.of(backup("br: {cluster: c}\nazblob: {container: c, secretName: az}").getSpec()).getAzblob();
    assertEquals(java.util.Optional.empty(), BackupJob.azureCredentialProblem(az, java.util.Set.of("AZURE_STORAGE_KEY")::contains));
    assertEquals(java.util.Optional.empty(), BackupJob.azureCredentialProblem(az,
        java.util.Set.of("AZURE_CLIENT_ID", "AZURE_CLIENT_SECRET", "AZURE_TENANT_ID")::contains));
    assertEquals(java.util.Optional.of("Secret az has neither AZURE_STORAGE_KEY (the shared key) nor all of"
        + " AZURE_CLIENT_ID, AZURE_CLIENT_SECRET, AZURE_TENANT_ID (Azure AD); or give spec.azblob.sasToken"),
        BackupJob.azureCredentialProblem(az, java.util.Set.of("AZURE_CLIENT_ID", "AZURE_TENANT_ID")::contains));
    az.setSasToken("sv=1&sig=x");
    assertEquals(java.util.Optional.empty(), BackupJob.azureCredentialProblem(az, k -> false), "a SAS token needs no key");
  }

  private static io.tidb.operator.api.v1alpha1.cluster.TidbCluster cluster(boolean tls) {
    return ApiObjects.parse("""
        apiVersion: pingcap.com/v1alpha1
        kind: TidbCluster
        metadata: {name: basic, namespace: ns}
        spec: {version: v8.5.7, tlsCluster: {enabled: %s}}
        """.formatted(tls), io.tidb.operator.api.v1alpha1.cluster.TidbCluster.class);
  }

  @Test
  void aTlsClustersJobMountsItsClientSecretAndTellsTheBackupManager() {
    Backup b = backup("backupMode: log\nbr: {cluster: basic}\ns3: {provider: aws, bucket: bk, prefix: log}");
    BackupSettings settings = new BackupSettings("op:1", "{name}-pd.{namespace}:2379", "/bin/br");
    Job tls = LogBackupWork.commandJob(b, cluster(true), LogBackupCommands.STOP, "stop-b", "backup-b", settings);
    var pod = tls.getSpec().getTemplate().getSpec();
    var container = pod.getContainers().get(0);
    assertEquals(List.of("backup-manager", "backup", "--namespace", "ns", "--name", "b", "--cluster-tls", "--",
        "/bin/br", "log", "stop", "--task-name=b", "--pd=basic-pd.ns:2379", "--storage=s3://bk/log",
        "--s3.provider=aws"), container.getArgs());
    var volume = pod.getVolumes().stream().filter(v -> "cluster-client-tls".equals(v.getName())).findFirst().orElseThrow();
    assertEquals("basic-cluster-client-secret", volume.getSecret().getSecretName());
    var mount = container.getVolumeMounts().stream().filter(m -> "cluster-client-tls".equals(m.getName()))
        .findFirst().orElseThrow();
    assertEquals("/var/lib/cluster-client-tls", mount.getMountPath());
    assertTrue(mount.getReadOnly());

    Job plain = LogBackupWork.commandJob(b, cluster(false), LogBackupCommands.STOP, "stop-b", "backup-b", settings);
    var plainPod = plain.getSpec().getTemplate().getSpec();
    assertFalse(plainPod.getContainers().get(0).getArgs().contains("--cluster-tls"));
    assertTrue(plainPod.getVolumes().stream().noneMatch(v -> "cluster-client-tls".equals(v.getName())));
    assertTrue(plainPod.getContainers().get(0).getVolumeMounts().stream()
        .noneMatch(m -> "cluster-client-tls".equals(m.getName())));
  }

  @Test
  void theCleanUpWaitsForEveryJobThatWritesTheData() {
    assertEquals(List.of("backup-b"), BackupCleaner.backupJobNames(backup("br: {cluster: c}\ns3: {bucket: bk}")));
    assertEquals(List.of("backup-b-log-start", "backup-b-log-stop", "backup-b-log-pause", "backup-b-log-resume",
            "backup-b-log-truncate"),
        BackupCleaner.backupJobNames(backup("backupMode: log\nbr: {cluster: c}\ns3: {bucket: bk}")));
  }

  @Test
  void theControllerAppliesOnlyItsOwnStatusFields() {
    BackupStatus s = ApiObjects.parse(BrSummaryTest.FULL_STATUS, BackupStatus.class);
    BackupStatus mine = BackupStatuses.controllerPart(s);
    assertEquals("Complete", mine.getPhase());
    assertEquals("s3://bk/p", mine.getBackupPath());
    assertEquals(null, mine.getCommitTs());
    assertEquals(null, mine.getBackupSize());
    assertEquals(null, mine.getTimeStarted());
    assertEquals(s.getConditions(), mine.getConditions());
  }
}
