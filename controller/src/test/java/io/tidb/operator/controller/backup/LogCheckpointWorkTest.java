package io.tidb.operator.controller.backup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.fabric8.kubernetes.api.model.Secret;
import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.v1alpha1.backup.Backup;
import io.tidb.operator.api.v1alpha1.backup.BackupStatus;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.controller.fixtures.FakeApplier;
import io.tidb.operator.controller.fixtures.FakeOwnedObjects;
import io.tidb.operator.controller.fixtures.LogTaskValues;
import io.tidb.operator.controller.fixtures.RecordingEventRecorder;
import io.tidb.operator.controller.runtime.ResourceContext;
import io.tidb.operator.controller.runtime.WorkOutcome;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * A log backup's reconcile, once it has nothing else to do and its task was started, reads the
 * task's pause mark from the cluster's PD and corrects the status when the task's state differs;
 * while it runs also its checkpoint, recorded when it moved; it comes back after the period to
 * read again.
 */
class LogCheckpointWorkTest {

  private static final Duration PERIOD = Duration.ofSeconds(30);
  private static final Instant NOW = Instant.parse("2026-12-02T03:00:00Z");

  private final TidbCluster cluster = ApiObjects.parse("""
      apiVersion: pingcap.com/v1alpha1
      kind: TidbCluster
      metadata: {name: basic, namespace: ns}
      spec: {version: v8.5.7}
      """, TidbCluster.class);
  private final List<String> reads = new ArrayList<>();
  /** PD's etcd: the keys read are those under the prefix asked for. */
  private final Map<String, byte[]> etcd = new TreeMap<>();
  private Supplier<Map<String, byte[]>> pd = () -> etcd;
  private final RecordingEventRecorder events = new RecordingEventRecorder();
  private final FakeOwnedObjects owned = new FakeOwnedObjects();
  private final List<String> deleted = new ArrayList<>();
  private final BackupWork work = new BackupWork(new BackupSettings("op:1", "{name}-pd.{namespace}:2379", "/bin/br"),
      new Lookups(), new LogCheckpoints((tc, prefix) -> {
        reads.add(tc.getMetadata().getNamespace() + "/" + tc.getMetadata().getName() + " " + prefix);
        Map<String, byte[]> under = new TreeMap<>();
        pd.get().forEach((k, v) -> {
          if (k.startsWith(prefix)) {
            under.put(k, v);
          }
        });
        return under;
      }, PERIOD));

  private final Backup backup = ApiObjects.parse("""
      apiVersion: pingcap.com/v1alpha1
      kind: Backup
      metadata: {name: pitr, namespace: ns, uid: u-1, generation: 1}
      spec:
        backupMode: log
        br: {cluster: basic}
        s3: {provider: aws, region: us-west-2, bucket: b, prefix: p, secretName: s3}
      status:
        phase: Running
        commitTs: "464000000000000000"
        logSubCommandStatuses:
          log-start: {command: log-start, phase: Complete}
      """, Backup.class);

  private WorkOutcome reconcile() {
    BackupStatus status = ApiObjects.deepCopy(backup.getStatus());
    WorkOutcome outcome = work.work(new ResourceContext<>(backup, backup, status, owned,
        new FakeApplier(), events, NOW));
    backup.setStatus(status);
    return outcome;
  }

  private static byte[] be(long tso) {
    return ByteBuffer.allocate(8).putLong(tso).array();
  }

  @Test
  void aRunningLogBackupReadsItsCheckpointAndComesBackAfterThePeriod() {
    etcd.put("/tidb/br-stream/checkpoint/pitr/central_global", be(464_000_000_000_262_144L));
    WorkOutcome outcome = reconcile();
    assertEquals(List.of("ns/basic /tidb/br-stream/pause/pitr", "ns/basic /tidb/br-stream/checkpoint/pitr/"), reads);
    assertEquals(WorkOutcome.CONVERGED, outcome.result());
    assertEquals(Optional.of(PERIOD), outcome.recheckAfter());
    assertEquals("464000000000262144", backup.getStatus().getLogCheckpointTs());
    assertEquals("2026-12-02T03:00:00Z", backup.getStatus().getTimeSynced());

    BackupStatus before = ApiObjects.deepCopy(backup.getStatus());
    assertEquals(Optional.of(PERIOD), reconcile().recheckAfter());
    assertEquals(before, backup.getStatus(), "an unchanged checkpoint changes nothing, so nothing is written");
  }

  @Test
  void aFailedReadChangesNothingAndIsTriedAgainNextPeriod() {
    pd = () -> {
      throw new IllegalStateException("PD unreachable");
    };
    WorkOutcome outcome = reconcile();
    assertEquals(Optional.of(PERIOD), outcome.recheckAfter());
    assertNull(backup.getStatus().getLogCheckpointTs());
    assertNull(backup.getStatus().getTimeSynced());
  }

  @Test
  void aPausedLogBackupsCheckpointIsNotReadOnlyItsPauseMark() {
    pausedBySpec();
    etcd.put("/tidb/br-stream/pause/pitr", new byte[0]);
    WorkOutcome outcome = reconcile();
    assertEquals(List.of("ns/basic /tidb/br-stream/pause/pitr"), reads);
    assertEquals(Optional.of(PERIOD), outcome.recheckAfter());
    assertEquals("Paused", backup.getStatus().getPhase());
  }

  private void pausedBySpec() {
    backup.getStatus().setPhase("Paused");
    backup.getSpec().setLogSubcommand("log-pause");
    backup.getStatus().getLogSubCommandStatuses().put("log-pause", ApiObjects.parse(
        "command: log-pause\nphase: Complete\n", io.tidb.operator.api.v1alpha1.backup.LogSubCommandStatus.class));
  }

  @Test
  void aTaskPausedByHandIsPausedOnTheSecondReadThenResumedAsTheSpecAsks() {
    etcd.put("/tidb/br-stream/pause/pitr", new byte[0]);
    BackupStatus before = ApiObjects.deepCopy(backup.getStatus());
    reconcile();
    assertEquals(before, backup.getStatus(), "seen once: nothing written yet (upstream's double check)");
    WorkOutcome outcome = reconcile();
    assertEquals("Paused", backup.getStatus().getPhase());
    assertEquals("LogBackupKernelSync", backup.getStatus().getConditions().stream()
        .filter(c -> "Paused".equals(c.getType())).findFirst().orElseThrow().getReason());
    assertEquals(List.of("LogBackupKernelSync"), events.reasons());
    assertEquals(Optional.of(PERIOD), outcome.recheckAfter());

    WorkOutcome next = reconcile();
    assertEquals(WorkOutcome.CONVERGING, next.result(), "the spec still says log-start: the task is resumed");
    assertEquals("Scheduled", backup.getStatus().getLogSubCommandStatuses().get("log-resume").getPhase());
  }

  private static io.fabric8.kubernetes.api.model.batch.v1.Job finishedJob(String name) {
    return ApiObjects.parse("""
        apiVersion: batch/v1
        kind: Job
        metadata:
          name: %s
          namespace: ns
          annotations: {tidb.pingcap.com/backup-generation: "1"}
          ownerReferences: [{apiVersion: pingcap.com/v1alpha1, kind: Backup, name: pitr, uid: u-1, controller: true}]
        status:
          conditions: [{type: Complete, status: "True"}]
        """.formatted(name), io.fabric8.kubernetes.api.model.batch.v1.Job.class);
  }

  @Test
  void theResumesFinishedJobOfThisSpecIsDeletedToRunItAgain() {
    owned.add(finishedJob("backup-pitr-log-resume"));
    backup.getStatus().getLogSubCommandStatuses().put("log-resume", ApiObjects.parse(
        "command: log-resume\nphase: Complete\n", io.tidb.operator.api.v1alpha1.backup.LogSubCommandStatus.class));
    etcd.put("/tidb/br-stream/pause/pitr", new byte[0]);
    reconcile();
    reconcile();
    assertEquals("Paused", backup.getStatus().getPhase());
    assertEquals("Repeatable", backup.getStatus().getLogSubCommandStatuses().get("log-resume").getPhase());
    WorkOutcome next = reconcile();
    assertEquals(List.of("ns/backup-pitr-log-resume"), deleted, "an earlier resume's Job is not this resume's result");
    assertEquals("Paused", backup.getStatus().getPhase());
    assertEquals(WorkOutcome.CONVERGING, next.result());
  }

  @Test
  void aPauseThatCameAndWentBetweenTwoReadsChangesNothing() {
    etcd.put("/tidb/br-stream/pause/pitr", new byte[0]);
    reconcile();
    etcd.remove("/tidb/br-stream/pause/pitr");
    reconcile();
    etcd.put("/tidb/br-stream/pause/pitr", new byte[0]);
    reconcile();
    assertEquals("Running", backup.getStatus().getPhase(), "never seen on two reads in a row");
  }

  @Test
  void aTaskResumedByHandIsRunningOnTheSecondRead() {
    pausedBySpec();
    reconcile();
    assertEquals("Paused", backup.getStatus().getPhase());
    reconcile();
    assertEquals("Running", backup.getStatus().getPhase());
    assertEquals("Repeatable", backup.getStatus().getLogSubCommandStatuses().get("log-pause").getPhase());
  }

  @Test
  void anErrorPauseIsRetryFailedAtOnceWithAWarningAndNoMoreCheckpoints() {
    owned.add(finishedJob("backup-pitr-log-start"));
    etcd.put("/tidb/br-stream/pause/pitr", LogTaskValues.pause("ERROR", LogTaskValues.STREAM_BACKUP_ERROR_TYPE,
        LogTaskValues.streamBackupError(1L, "BR:KV:ErrKVStorage", "disk full", 4)));
    etcd.put("/tidb/br-stream/checkpoint/pitr/central_global", be(464_000_000_000_262_144L));
    WorkOutcome outcome = reconcile();
    assertEquals("RetryFailed", backup.getStatus().getPhase());
    assertEquals(List.of("LogBackupErrorPaused"), events.reasons());
    assertEquals("Log backup paused due to error: Paused by error(store 4): disk full",
        events.events.get(0).message());
    assertNull(backup.getStatus().getLogCheckpointTs(), "the checkpoint is read while Running only");
    assertEquals(Optional.of(PERIOD), outcome.recheckAfter());

    reconcile();
    assertEquals(1, events.events.size(), "the same error pause again: no second Event");
    assertEquals("RetryFailed", backup.getStatus().getPhase(), "the start's finished Job is not reported again");
    etcd.remove("/tidb/br-stream/pause/pitr");
    reconcile();
    assertEquals("Running", backup.getStatus().getPhase(), "resumed by hand: running again");
    assertEquals("464000000000262144", backup.getStatus().getLogCheckpointTs());
  }

  @Test
  void aFailedReadOfThePauseMarkChangesNothing() {
    pausedBySpec();
    pd = () -> {
      throw new IllegalStateException("PD unreachable");
    };
    BackupStatus before = ApiObjects.deepCopy(backup.getStatus());
    reconcile();
    reconcile();
    assertEquals(before, backup.getStatus());
  }

  @Test
  void whileACommandIsStillToRunTheCheckpointWaits() {
    backup.getSpec().setLogSubcommand("log-pause");
    WorkOutcome outcome = reconcile();
    assertEquals(List.of(), reads, "the pause's Job first");
    assertEquals(WorkOutcome.CONVERGING, outcome.result());
  }

  private final class Lookups implements BackupLookups {
    @Override
    public Optional<TidbCluster> cluster(String namespace, String name) {
      return "ns".equals(namespace) && "basic".equals(name) ? Optional.of(cluster) : Optional.empty();
    }

    @Override
    public Optional<Secret> secret(String namespace, String name) {
      return Optional.of(new io.fabric8.kubernetes.api.model.SecretBuilder().withNewMetadata().withName(name).endMetadata()
          .addToData("access_key", "YQ==").addToData("secret_key", "Yg==").build());
    }

    @Override
    public boolean jobExists(String namespace, String name) {
      return false;
    }

    @Override
    public Optional<String> failureMessage(String namespace, String jobName) {
      return Optional.empty();
    }

    @Override
    public Optional<String> lastMessage(String namespace, String jobName) {
      return Optional.empty();
    }

    @Override
    public void deleteJob(String namespace, String name) {
      deleted.add(namespace + "/" + name);
    }
  }
}
