package io.tidb.operator.controller.tidbcluster.pump;

import static io.tidb.operator.controller.fixtures.Rollouts.NEW;
import static io.tidb.operator.controller.fixtures.Rollouts.OLD;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tidb.operator.controller.fixtures.Rollouts;
import io.tidb.operator.controller.tidbcluster.member.MemberDecision;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PumpUpgradeTest {

  private static final Set<String> ALL = Set.of("basic-pump-0", "basic-pump-1");

  @Test
  void oneByOneFromTheTopEachBackOnlineBeforeTheNext() {
    assertEquals(new MemberDecision.Roll(1, "upgrading basic-pump-1 (0 of 2 done)"),
        PumpUpgrade.decide(Rollouts.rollout("basic-pump", 2).allReady(OLD).build(), ALL));
    Rollouts.Builder first = Rollouts.rollout("basic-pump", 2).partition(1)
        .ready(0, OLD).ready(1, NEW);
    assertEquals(MemberDecision.waitFor("waiting for the upgraded pump of basic-pump-1 to be"
            + " online in the binlog registry (1 of 2 done)"),
        PumpUpgrade.decide(first.build(), Set.of("basic-pump-0")));
    assertEquals(new MemberDecision.Roll(0, "upgrading basic-pump-0 (1 of 2 done)"),
        PumpUpgrade.decide(first.build(), ALL));
    assertEquals(MemberDecision.waitFor(
            "waiting for upgraded pod basic-pump-1 to be Ready (1 of 2 done)"),
        PumpUpgrade.decide(Rollouts.rollout("basic-pump", 2).partition(1).ready(0, OLD)
            .notReady(1, NEW).build(), ALL));
    assertEquals(MemberDecision.IDLE,
        PumpUpgrade.decide(Rollouts.rollout("basic-pump", 2).partition(0).allReady(NEW).build(), ALL));
  }
}
