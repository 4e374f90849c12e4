package io.tidb.operator.controller.tidbcluster.tiproxy;

import static io.tidb.operator.controller.fixtures.Rollouts.NEW;
import static io.tidb.operator.controller.fixtures.Rollouts.NOW;
import static io.tidb.operator.controller.fixtures.Rollouts.OLD;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tidb.operator.controller.fixtures.Rollouts;
import io.tidb.operator.controller.tidbcluster.member.MemberDecision;
import io.tidb.operator.controller.tidbcluster.member.Rollout;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** TiProxy's upgrade and scale-in rules as a decision table. */
class TiproxyUpgradeTest {

  private static final String STS = "basic-tiproxy";

  private record Row(String name, Rollout rollout, long minReady, MemberDecision expected) {}

  @Test
  void upgradeDecisionTable() {
    Rollouts.Builder lastDone = Rollouts.rollout(STS, 3).partition(2)
        .ready(0, OLD).ready(1, OLD);
    List<Row> rows = List.of(
        new Row("nothing upgraded: the highest ordinal first",
            Rollouts.rollout(STS, 3).allReady(OLD).build(), 0,
            new MemberDecision.Roll(2, "upgrading basic-tiproxy-2 (0 of 3 done)")),
        new Row("upgraded pod not Ready yet",
            Rollouts.rollout(STS, 3).partition(2).ready(0, OLD).ready(1, OLD).notReady(2, NEW)
                .build(), 0,
            MemberDecision.waitFor("waiting for upgraded pod basic-tiproxy-2 to be Ready (1 of 3 done)")),
        new Row("upgraded pod Ready for less than the annotation asks",
            Rollouts.rollout(STS, 3).partition(2).ready(0, OLD).ready(1, OLD)
                .readySince(2, NEW, NOW.minus(Duration.ofSeconds(10))).build(), 30,
            MemberDecision.waitFor("waiting for upgraded pod basic-tiproxy-2 to stay Ready for 30 s"
                + " (tiproxy.pingcap.com/tiproxy-min-ready-seconds; 1 of 3 done)")),
        new Row("upgraded pod Ready long enough: the next one",
            lastDone.readySince(2, NEW, NOW.minus(Duration.ofSeconds(31))).build(), 30,
            new MemberDecision.Roll(1, "upgrading basic-tiproxy-1 (1 of 3 done)")),
        new Row("released pod not yet replaced by the StatefulSet controller",
            Rollouts.rollout(STS, 3).partition(1).ready(0, OLD).ready(1, OLD).ready(2, NEW)
                .build(), 0,
            MemberDecision.waitFor("waiting for the StatefulSet controller to replace pod"
                + " basic-tiproxy-1 (1 of 3 done)")),
        new Row("a pod missing",
            Rollouts.rollout(STS, 3).partition(2).ready(0, OLD).ready(1, OLD).without(2).build(), 0,
            MemberDecision.waitFor("waiting for pod basic-tiproxy-2 to be recreated (0 of 3 done)")),
        new Row("every pod upgraded and Ready",
            Rollouts.rollout(STS, 3).partition(0).allReady(NEW).build(), 0, MemberDecision.IDLE));
    for (Row row : rows) {
      assertEquals(row.expected(), TiproxyUpgrade.decide(row.rollout(), row.minReady(), NOW),
          row.name());
    }
  }

  @Test
  void scaleInRemovesOnePodAtATime() {
    assertEquals(new MemberDecision.Resize(2, "scaling in from 3 to 2 (spec.tiproxy.replicas is 1)"),
        TiproxyUpgrade.scaleIn(3, 1));
    assertEquals(new MemberDecision.Resize(1, "scaling in from 2 to 1 (spec.tiproxy.replicas is 1)"),
        TiproxyUpgrade.scaleIn(2, 1));
  }
}
