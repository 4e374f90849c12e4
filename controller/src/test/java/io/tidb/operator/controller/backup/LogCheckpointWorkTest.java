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
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * A log backup's reconcile reads its checkpoint from the cluster's PD only while it runs and has
 * nothing else to do, records it when it moved, and comes back after the period to read again.
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
  private Supplier<Map<String, byte[]>> pd = Map::of;
  private final BackupWork work = new BackupWork(new BackupSettings("op:1", "{name}-pd.{namespace}:2379", "/bin/br"),
      new Lookups(), new LogCheckpoints((tc, prefix) -> {
        reads.add(tc.getMetadata().getNamespace() + "/" + tc.getMetadata().getName() + " " + prefix);
        return pd.get();
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
    WorkOutcome outcome = work.work(new ResourceContext<>(backup, backup, status, new FakeOwnedObjects(),
        new FakeApplier(), new RecordingEventRecorder(), NOW));
    backup.setStatus(status);
    return outcome;
  }

  private static byte[] be(long tso) {
    return ByteBuffer.allocate(8).putLong(tso).array();
  }

  @Test
  void aRunningLogBackupReadsItsCheckpointAndComesBackAfterThePeriod() {
    pd = () -> Map.of("/tidb/br-stream/checkpoint/pitr/central_global", be(464_000_000_000_262_144L));
    WorkOutcome outcome = reconcile();
    assertEquals(List.of("ns/basic /tidb/br-stream/checkpoint/pitr/"), reads);
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
  void aPausedLogBackupIsNotRead() {
    backup.getStatus().setPhase("Paused");
    backup.getSpec().setLogSubcommand("log-pause");
    backup.getStatus().getLogSubCommandStatuses().put("log-pause", ApiObjects.parse(
        "command: log-pause\nphase: Complete\n", io.tidb.operator.api.v1alpha1.backup.LogSubCommandStatus.class));
    WorkOutcome outcome = reconcile();
    assertEquals(List.of(), reads);
    assertEquals(WorkOutcome.converged(), outcome);
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
      throw new AssertionError("no Job to delete");
    }
  }
}
