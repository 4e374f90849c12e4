package io.tidb.operator.controller.dmcluster;

import static io.tidb.operator.controller.fixtures.Rollouts.NEW;
import static io.tidb.operator.controller.fixtures.Rollouts.rollout;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tidb.operator.controller.tidbcluster.member.Rollout;
import io.tidb.operator.dmapi.DmWorkerInfo;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The decision table of dm-worker's scale steps. */
class WorkerPlanTest {

  private static final String SET = "dc-dm-worker";

  private static Rollout settled(int replicas) {
    return rollout(SET, replicas).revisions(NEW, NEW).allReady(NEW).build();
  }

  private static Map<String, DmWorkerInfo> workers(DmWorkerInfo... ws) {
    Map<String, DmWorkerInfo> out = new TreeMap<>();
    for (DmWorkerInfo w : ws) {
      out.put(w.name(), w);
    }
    return out;
  }

  private static DmWorkerInfo w(int ordinal, String stage, String source) {
    return new DmWorkerInfo(SET + "-" + ordinal, "addr", stage, source);
  }

  @Test
  void createsScalesOutAndHoldsWithoutTheApi() {
    assertEquals(2, WorkerPlan.decide(2, Optional.empty(), false, Map.of()).replicas());
    assertEquals(2, WorkerPlan.decide(3, Optional.of(settled(1)), true, Map.of()).replicas());
    assertEquals(3, WorkerPlan.decide(1, Optional.of(settled(3)), false, Map.of()).replicas());
  }

  @Test
  void aFreeOrOfflineHighestWorkerIsScaledIn() {
    assertEquals(1, WorkerPlan.decide(1, Optional.of(settled(2)), true,
        workers(w(0, "bound", "s1"), w(1, "free", ""))).replicas());
  }

  @Test
  void aBoundHighestWorkerWithAFreeOneToTakeOverIsScaledIn() {
    WorkerPlan p = WorkerPlan.decide(2, Optional.of(settled(3)), true,
        workers(w(0, "bound", "s1"), w(1, "free", ""), w(2, "bound", "s2")));
    assertEquals(2, p.replicas());
    assertEquals(Optional.empty(), p.refusal());
  }

  @Test
  void aBoundHighestWorkerWithNoFreeWorkerIsRefused() {
    WorkerPlan p = WorkerPlan.decide(1, Optional.of(settled(2)), true,
        workers(w(0, "bound", "s1"), w(1, "bound", "s2")));
    assertEquals(2, p.replicas());
    assertTrue(p.refusal().get().startsWith("dc-dm-worker-1 is bound to source s2"), p.refusal().get());
  }

  @Test
  void onlyOfflineWorkersBeyondTheReplicasAreDeleted() {
    assertEquals(Set.of("dc-dm-worker-2"), WorkerPlan.offlineToDelete(SET, 2,
        List.of(w(0, "offline", ""), w(1, "free", ""), w(2, "offline", ""), w(3, "free", ""))));
  }
}
