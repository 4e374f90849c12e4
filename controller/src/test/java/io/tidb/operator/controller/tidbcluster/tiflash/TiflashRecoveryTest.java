package io.tidb.operator.controller.tidbcluster.tiflash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.cluster.TidbClusterStatus;
import io.tidb.operator.api.v1alpha1.cluster.TiflashSpec;
import io.tidb.operator.controller.fixtures.ClusterContexts;
import io.tidb.operator.controller.fixtures.FakeApplier;
import io.tidb.operator.controller.fixtures.FakeClusterApi;
import io.tidb.operator.controller.fixtures.FakeOwnedObjects;
import io.tidb.operator.controller.fixtures.FakeVolumeClaims;
import io.tidb.operator.controller.fixtures.RecordingEventRecorder;
import io.tidb.operator.controller.fixtures.TestClusters;
import io.tidb.operator.controller.runtime.ResourceContext;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterContext;
import io.tidb.operator.controller.tidbcluster.pipeline.Prerequisite;
import io.tidb.operator.controller.tidbcluster.pipeline.StepResult;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** TiFlash in a cluster restored from volume snapshots (upstream's syncRecoveryForTiFlash). */
class TiflashRecoveryTest {

  private static final String HOLD_VOLUMES = "TiFlash: spec.recoveryMode is true; waiting for "
      + "TiKV's volumes to be restored (annotation tidb.pingcap.com/tikv-volumes-ready)";
  private static final String HOLD_MARK = "TiFlash: spec.recoveryMode is true; waiting for PD's "
      + "snapshot-recovering mark to be cleared";

  private static TidbCluster flash(Boolean recoveryMode, boolean volumesReady) {
    TidbCluster tc = TestClusters.load("basic");
    tc.getSpec().setTiflash(ApiObjects.parse("""
        baseImage: pingcap/tiflash
        replicas: 1
        storageClaims: [{resources: {requests: {storage: 10Gi}}}]
        """, TiflashSpec.class));
    tc.getSpec().setRecoveryMode(recoveryMode);
    if (volumesReady) {
      tc.getMetadata().setAnnotations(Map.of(TiflashRecovery.VOLUMES_READY, "true"));
    }
    return tc;
  }

  @Test
  void decisionTable() {
    assertEquals(Optional.empty(), TiflashRecovery.waitingForVolumes(flash(null, false)));
    assertEquals(Optional.empty(), TiflashRecovery.waitingForVolumes(flash(false, false)));
    assertEquals(Optional.of(HOLD_VOLUMES), TiflashRecovery.waitingForVolumes(flash(true, false)));
    assertEquals(Optional.empty(), TiflashRecovery.waitingForVolumes(flash(true, true)));
    assertEquals(Optional.of(HOLD_MARK), TiflashRecovery.waitingForMark(TiflashRecovery.Mark.MARKED));
    assertEquals(Optional.empty(), TiflashRecovery.waitingForMark(TiflashRecovery.Mark.CLEAR));
    assertEquals(Optional.empty(), TiflashRecovery.waitingForMark(TiflashRecovery.Mark.UNKNOWN),
        "a mark PD cannot be asked about does not hold TiFlash, as upstream");
  }

  /** What one TiFlash pass writes, and what it reports. */
  private static Map.Entry<StepResult, List<String>> pass(TidbCluster tc, boolean marked)
      throws Exception {
    FakeClusterApi api = new FakeClusterApi();
    api.snapshotRecovering = marked;
    FakeApplier applier = new FakeApplier();
    ClusterContext ctx = new ClusterContext(
        new ResourceContext<>(tc, tc, new TidbClusterStatus(), new FakeOwnedObjects(), applier,
            new RecordingEventRecorder(), ClusterContexts.NOW),
        api, new FakeVolumeClaims());
    TiflashStep step = new TiflashStep(Prerequisite.NONE);
    step.observe(ctx);
    return Map.entry(step.apply(ctx), List.copyOf(applier.writes));
  }

  @Test
  void heldTiflashCreatesNothingAndLetsTheRestOfTheClusterGoOn() throws Exception {
    var volumes = pass(flash(true, false), false);
    assertEquals(StepResult.inProgress(HOLD_VOLUMES), volumes.getKey());
    assertEquals(List.of(), volumes.getValue());

    var mark = pass(flash(true, true), true);
    assertEquals(StepResult.inProgress(HOLD_MARK), mark.getKey());
    assertEquals(List.of(), mark.getValue());

    var cleared = pass(flash(true, true), false);
    assertTrue(cleared.getValue().contains("StatefulSet basic-tiflash"), cleared.getValue().toString());
  }
}
