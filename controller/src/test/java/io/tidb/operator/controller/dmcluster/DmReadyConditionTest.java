package io.tidb.operator.controller.dmcluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder;
import io.tidb.operator.api.v1alpha1.dm.MasterMember;
import io.tidb.operator.api.v1alpha1.dm.WorkerMember;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The decision table of the DMCluster's Ready condition. */
class DmReadyConditionTest {

  private static StatefulSet sts(int replicas, int ready, String current, String update) {
    return new StatefulSetBuilder().withNewMetadata().withGeneration(1L).endMetadata()
        .withNewSpec().withReplicas(replicas).endSpec()
        .withNewStatus().withObservedGeneration(1L).withReplicas(replicas).withReadyReplicas(ready)
        .withCurrentRevision(current).withUpdateRevision(update).endStatus().build();
  }

  private static MasterMember m(boolean health) {
    MasterMember m = new MasterMember();
    m.setHealth(health);
    return m;
  }

  private static WorkerMember w(String stage) {
    WorkerMember w = new WorkerMember();
    w.setStage(stage);
    return w;
  }

  private static String reason(Map<String, MasterMember> masters, String leader, StatefulSet master,
      Map<String, WorkerMember> workers, StatefulSet worker, boolean synced) {
    return DmReadyCondition.evaluate(false, 2, Optional.of(master), masters, leader, Optional.of(1),
        Optional.of(worker), workers, synced).reason();
  }

  private static final Map<String, MasterMember> TWO = Map.of("a", m(true), "b", m(true));
  private static final StatefulSet OK2 = sts(2, 2, "r1", "r1");
  private static final StatefulSet OK1 = sts(1, 1, "r1", "r1");

  @Test
  void readyOnlyWhenEverythingIsUp() {
    assertEquals("Ready", reason(TWO, "a", OK2, Map.of("w", w("bound")), OK1, true));
    assertEquals("DMMasterUnreachable", reason(TWO, "a", OK2, Map.of("w", w("bound")), OK1, false));
    assertEquals("MasterStatefulSetNotUpToDate", reason(TWO, "a", sts(2, 2, "r1", "r2"), Map.of("w", w("free")), OK1, true));
    assertEquals("MasterStatefulSetNotUpToDate", reason(TWO, "a", sts(2, 1, "r1", "r1"), Map.of("w", w("free")), OK1, true));
    assertEquals("MasterUnhealthy", reason(Map.of("a", m(true), "b", m(false)), "a", OK2, Map.of("w", w("free")), OK1, true));
    assertEquals("MasterUnhealthy", reason(TWO, null, OK2, Map.of("w", w("free")), OK1, true));
    assertEquals("WorkerStatefulSetNotUpToDate", reason(TWO, "a", OK2, Map.of("w", w("free")), sts(1, 0, "r1", "r1"), true));
    assertEquals("WorkerUnhealthy", reason(TWO, "a", OK2, Map.of("w", w("offline")), OK1, true));
    assertEquals("Paused", DmReadyCondition.evaluate(true, 0, Optional.empty(), Map.of(), null, Optional.empty(),
        Optional.empty(), Map.of(), true).reason());
  }
}
