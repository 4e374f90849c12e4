package io.tidb.operator.controller.tidbcluster.ticdc;

import static io.tidb.operator.controller.fixtures.Rollouts.NEW;
import static io.tidb.operator.controller.fixtures.Rollouts.OLD;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tidb.operator.controller.fixtures.Rollouts;
import io.tidb.operator.controller.tidbcluster.member.MemberDecision;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TicdcUpgradeTest {

  private static final Set<String> ALL = Set.of("basic-ticdc-0", "basic-ticdc-1", "basic-ticdc-2");

  @Test
  void theHighestOrdinalFirstAndEachUpgradedCaptureMustAnswer() {
    assertEquals(new MemberDecision.Roll(2, "upgrading basic-ticdc-2 (0 of 3 done)"),
        TicdcUpgrade.decide(Rollouts.rollout("basic-ticdc", 3).allReady(OLD).build(), ALL));
    Rollouts.Builder one = Rollouts.rollout("basic-ticdc", 3).partition(2)
        .ready(0, OLD).ready(1, OLD).ready(2, NEW);
    assertEquals(MemberDecision.waitFor(
            "waiting for the upgraded TiCDC capture of basic-ticdc-2 to answer (1 of 3 done)"),
        TicdcUpgrade.decide(one.build(), Set.of("basic-ticdc-0", "basic-ticdc-1")));
    assertEquals(new MemberDecision.Roll(1, "upgrading basic-ticdc-1 (1 of 3 done)"),
        TicdcUpgrade.decide(one.build(), ALL));
    assertEquals(MemberDecision.IDLE,
        TicdcUpgrade.decide(Rollouts.rollout("basic-ticdc", 3).partition(0).allReady(NEW).build(), ALL));
  }

  @Test
  void scaleInRemovesOnePodAtATime() {
    assertEquals(new MemberDecision.Resize(2, "scaling in from 3 to 2 (spec.ticdc.replicas is 1)"),
        TicdcUpgrade.scaleIn(3, 1));
  }
}
