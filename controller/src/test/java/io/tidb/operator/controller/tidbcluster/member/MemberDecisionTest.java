package io.tidb.operator.controller.tidbcluster.member;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class MemberDecisionTest {

  @Test
  void idleSaysNothing() {
    assertEquals("", MemberDecision.IDLE.message());
    assertEquals(new MemberDecision.Idle(), MemberDecision.IDLE);
  }

  @Test
  void everyOtherDecisionCarriesItsStatusLine() {
    assertEquals("w", MemberDecision.waitFor("w").message());
    assertEquals(new MemberDecision.Wait("w"), MemberDecision.waitFor("w"));
    assertEquals("b", new MemberDecision.Blocked("FailedScaleIn", "b").message());
    assertEquals("r", new MemberDecision.Resize(2, "r").message());
    assertEquals("p", new MemberDecision.Roll(1, "p").message());
    assertEquals("a", new MemberDecision.Act(new VolumeActions.MarkDeferred(List.of()), "a").message());
  }
}
