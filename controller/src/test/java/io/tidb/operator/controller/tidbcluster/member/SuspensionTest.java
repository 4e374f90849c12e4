package io.tidb.operator.controller.tidbcluster.member;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder;
import io.tidb.operator.api.v1alpha1.cluster.SuspendAction;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.controller.fixtures.ClusterContexts;
import io.tidb.operator.controller.fixtures.FakeClusterApi;
import io.tidb.operator.controller.fixtures.FakeOwnedObjects;
import io.tidb.operator.controller.fixtures.TestClusters;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterContext;
import io.tidb.operator.controller.tidbcluster.pipeline.Component;
import java.util.List;
import org.junit.jupiter.api.Test;

class SuspensionTest {

  private static Suspension.State decide(boolean wanted, String phase, boolean exists,
      List<String> earlier) {
    return Suspension.decide(new Suspension.Facts("TiKV", wanted, phase, exists, earlier));
  }

  // --- decision table ---

  @Test
  void notWantedRunsAsUsualWhateverThePhase() {
    assertEquals(Suspension.RUNNING, decide(false, "Normal", true, List.of()));
    // set back to false while suspended: resumes
    assertEquals(Suspension.RUNNING, decide(false, "Suspend", false, List.of()));
  }

  @Test
  void fromNormalTheStatefulSetIsDeleted() {
    Suspension.State s = decide(true, "Normal", true, List.of());
    Suspension.State.Delete d = assertInstanceOf(Suspension.State.Delete.class, s);
    assertTrue(d.message().contains("volume claims, Services and ConfigMaps are kept"));
  }

  @Test
  void aScaleOrUpgradeInFlightIsFinishedFirst() {
    assertEquals(
        new Suspension.State.Waiting("suspension waits until TiKV is no longer in phase Upgrade"),
        decide(true, "Upgrade", true, List.of()));
    assertInstanceOf(Suspension.State.Waiting.class, decide(true, "Scale", true, List.of()));
  }

  @Test
  void earlierComponentsInUpstreamsOrderGoFirst() {
    assertEquals(
        new Suspension.State.Waiting("suspension waits for TiDB to be suspended first"),
        decide(true, "Normal", true, List.of("TiDB")));
  }

  @Test
  void onceSuspendingTheOrderNoLongerHolds() {
    // phase Suspend already: the StatefulSet goes even if an earlier one came back meanwhile
    assertInstanceOf(Suspension.State.Delete.class, decide(true, "Suspend", true, List.of("TiDB")));
  }

  @Test
  void withoutAStatefulSetTheComponentIsSuspended() {
    assertInstanceOf(Suspension.State.Suspended.class, decide(true, "Suspend", false, List.of()));
    assertInstanceOf(Suspension.State.Suspended.class, decide(true, "Normal", false, List.of()));
    assertTrue(Suspension.holding(decide(true, "Suspend", false, List.of())).isPresent());
    assertFalse(Suspension.holding(decide(true, "Upgrade", true, List.of())).isPresent());
  }

  // --- the spec: the component's action overrides the cluster's ---

  private static SuspendAction action(Boolean suspend) {
    SuspendAction a = new SuspendAction();
    a.setSuspendStatefulSet(suspend);
    return a;
  }

  @Test
  void theComponentsActionOverridesTheClusters() {
    TidbCluster tc = TestClusters.load("basic");
    assertFalse(Suspension.wanted(tc, tc.getSpec().getTikv()));
    tc.getSpec().setSuspendAction(action(true));
    assertTrue(Suspension.wanted(tc, tc.getSpec().getTikv()));
    tc.getSpec().getTikv().setSuspendAction(action(false));
    assertFalse(Suspension.wanted(tc, tc.getSpec().getTikv()));
    assertTrue(Suspension.wanted(tc, tc.getSpec().getPd()));
  }

  @Test
  void aComponentTheClusterDoesNotHaveIsNeverSuspended() {
    TidbCluster tc = TestClusters.load("basic");
    tc.getSpec().setSuspendAction(action(true));
    assertFalse(Suspension.wanted(tc, null));
    tc.getSpec().setSuspendAction(action(null));
    assertFalse(Suspension.wanted(tc, tc.getSpec().getPd()));
    ClusterContext ctx = ClusterContexts.observing(tc, new FakeOwnedObjects(), new FakeClusterApi());
    assertEquals(Suspension.RUNNING,
        Suspension.of(ctx, new Component("pd"), "PD", tc.getSpec().getPd(), "Normal"));
  }

  @Test
  void theOrderIsReadFromTheCache() {
    TidbCluster tc = TestClusters.load("basic");
    tc.getSpec().setSuspendAction(action(true));
    FakeOwnedObjects owned = new FakeOwnedObjects();
    for (String c : List.of("pd", "tikv", "tidb")) {
      owned.add(new StatefulSetBuilder().withNewMetadata().withName("basic-" + c)
          .withNamespace("default").withUid("uid-" + c).endMetadata().build());
    }
    ClusterContext ctx = ClusterContexts.observing(tc, owned, new FakeClusterApi());
    assertInstanceOf(Suspension.State.Delete.class,
        Suspension.of(ctx, new Component("tidb"), "TiDB", tc.getSpec().getTidb(), "Normal"));
    assertEquals(new Suspension.State.Waiting("suspension waits for TiDB to be suspended first"),
        Suspension.of(ctx, new Component("tikv"), "TiKV", tc.getSpec().getTikv(), "Normal"));
    assertEquals(
        new Suspension.State.Waiting("suspension waits for TiDB, TiKV to be suspended first"),
        Suspension.of(ctx, new Component("pd"), "PD", tc.getSpec().getPd(), "Normal"));
    // TiDB keeps running (its own action says no): TiKV need not wait for it
    tc.getSpec().getTidb().setSuspendAction(action(false));
    assertInstanceOf(Suspension.State.Delete.class,
        Suspension.of(ctx, new Component("tikv"), "TiKV", tc.getSpec().getTikv(), "Normal"));
  }
}
