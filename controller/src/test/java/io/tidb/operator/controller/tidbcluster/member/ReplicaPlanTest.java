package io.tidb.operator.controller.tidbcluster.member;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tidb.operator.controller.tidbcluster.member.ReplicaPlan.Change;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ReplicaPlanTest {

  @Test
  void newStatefulSetGetsTheSpecReplicas() {
    ReplicaPlan p = ReplicaPlan.decide(3, Optional.empty(), 1);
    assertEquals(3, p.target());
    assertEquals(Change.CREATE, p.change());
    assertEquals(3, p.destination());
  }

  @Test
  void scaleOutIsBoundedByTheStep() {
    ReplicaPlan p = ReplicaPlan.decide(5, Optional.of(3), 1);
    assertEquals(4, p.target());
    assertEquals(Change.SCALE_OUT, p.change());
    assertEquals(5, p.destination());
    assertEquals(5, ReplicaPlan.decide(5, Optional.of(3), 10).target());
  }

  @Test
  void unboundedStepDoesNotOverflow() {
    assertEquals(3, ReplicaPlan.decide(3, Optional.of(2), Integer.MAX_VALUE).target());
  }

  @Test
  void nonPositiveStepStillMovesByOne() {
    assertEquals(4, ReplicaPlan.decide(5, Optional.of(3), 0).target());
  }

  @Test
  void scaleInKeepsTheReplicasForTheComponentRuleAndHeadsForTheSpec() {
    ReplicaPlan p = ReplicaPlan.decide(1, Optional.of(3), 1);
    assertEquals(3, p.target());
    assertEquals(Change.SCALE_IN, p.change());
    assertEquals(1, p.destination());
  }

  @Test
  void steady() {
    ReplicaPlan p = ReplicaPlan.decide(3, Optional.of(3), 1);
    assertEquals(3, p.target());
    assertEquals(Change.NONE, p.change());
  }
}
