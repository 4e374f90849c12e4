package io.tidb.operator.controller.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.fabric8.kubernetes.api.model.Condition;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConditionsTest {

  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00.250Z");
  private static final Instant T1 = Instant.parse("2026-01-01T00:05:00Z");

  @Test
  void newConditionGetsNowAsTransitionTime() {
    List<Condition> c = Conditions.set(null, "Ready", "False", "PDUnhealthy", "m", 1L, T0);
    assertEquals(1, c.size());
    assertEquals("2026-01-01T00:00:00Z", c.get(0).getLastTransitionTime());
    assertEquals(1L, c.get(0).getObservedGeneration());
  }

  @Test
  void sameStatusKeepsTransitionTimeEvenWhenReasonChanges() {
    List<Condition> c0 = Conditions.set(null, "Ready", "False", "PDUnhealthy", "m", 1L, T0);
    List<Condition> c1 = Conditions.set(c0, "Ready", "False", "TiKVStoreNotUp", "n", 1L, T1);
    assertEquals("2026-01-01T00:00:00Z", c1.get(0).getLastTransitionTime());
    assertEquals("TiKVStoreNotUp", c1.get(0).getReason());
  }

  @Test
  void unchangedConditionIsEqual() {
    List<Condition> c0 = Conditions.set(null, "Ready", "True", "Ready", "m", 2L, T0);
    assertEquals(c0, Conditions.set(c0, "Ready", "True", "Ready", "m", 2L, T1));
  }

  @Test
  void flipMovesTransitionTimeAndKeepsOtherConditions() {
    List<Condition> c0 = Conditions.set(null, "Valid", "True", "Valid", "ok", 1L, T0);
    c0 = Conditions.set(c0, "Ready", "False", "PDUnhealthy", "m", 1L, T0);
    List<Condition> c1 = Conditions.set(c0, "Ready", "True", "Ready", "up", 1L, T1);
    assertEquals(2, c1.size());
    assertEquals("Valid", c1.get(0).getType());
    assertEquals("2026-01-01T00:05:00Z", c1.get(1).getLastTransitionTime());
  }

  @Test
  void removeLeavesNullWhenEmpty() {
    List<Condition> c0 = Conditions.set(null, "ScaleIn", "False", "r", "m", 1L, T0);
    assertNull(Conditions.remove(c0, "ScaleIn"));
  }
}
