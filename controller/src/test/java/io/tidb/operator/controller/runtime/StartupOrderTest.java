package io.tidb.operator.controller.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** On start, settled resources let the others go first, once. */
class StartupOrderTest {

  private static final Instant T0 = Instant.parse("2026-12-02T10:00:00Z");

  private static List<Condition> ready(String status, long observed) {
    return List.of(new ConditionBuilder().withType("Valid").withStatus("True").withObservedGeneration(observed).build(),
        new ConditionBuilder().withType("Ready").withStatus(status).withObservedGeneration(observed).build());
  }

  @Test
  void aSettledResourceIsDeferredOnFirstSightOnly() {
    StartupOrder order = new StartupOrder();
    Optional<Duration> first = order.deferral(T0, "uid-1", 3L, ready("True", 3));
    assertTrue(first.isPresent());
    assertTrue(first.get().compareTo(StartupOrder.MIN_DELAY) >= 0);
    assertTrue(first.get().compareTo(StartupOrder.MIN_DELAY.plus(StartupOrder.SPREAD)) <= 0);
    assertEquals(first, new StartupOrder().deferral(T0, "uid-1", 3L, ready("True", 3)), "the same delay for the same uid");
    assertEquals(Optional.empty(), order.deferral(T0, "uid-1", 3L, ready("True", 3)), "reconciled when it comes back");
  }

  @Test
  void newChangedUnreadyAndConditionlessResourcesRunAtOnce() {
    StartupOrder order = new StartupOrder();
    assertEquals(Optional.empty(), order.deferral(T0, "new", 1L, List.of()), "never reconciled");
    assertEquals(Optional.empty(), order.deferral(T0, "changed", 4L, ready("True", 3)), "spec changed while no operator ran");
    assertEquals(Optional.empty(), order.deferral(T0, "unready", 3L, ready("False", 3)));
    assertEquals(Optional.empty(), order.deferral(T0, "no-generation", null, ready("True", 3)));
    assertEquals(Optional.empty(), order.deferral(T0, null, 3L, ready("True", 3)));
    assertFalse(StartupOrder.settled(3L, null));
  }

  @Test
  void afterTheStartNothingIsDeferredNorRemembered() {
    StartupOrder order = new StartupOrder();
    assertEquals(Optional.empty(), order.deferral(T0, "first", 1L, List.of()), "the first reconcile starts the window");
    Instant late = T0.plus(StartupOrder.WINDOW);
    assertTrue(order.deferral(late.minusMillis(1), "early", 3L, ready("True", 3)).isPresent());
    assertEquals(Optional.empty(), order.deferral(late, "late", 3L, ready("True", 3)));
    assertEquals(Optional.empty(), order.deferral(late.plusSeconds(60), "later", 3L, ready("True", 3)));
  }

  @Test
  void theStartIsTheFirstReconcileNotConstruction() {
    StartupOrder order = new StartupOrder();
    Instant takeover = T0.plus(StartupOrder.WINDOW.multipliedBy(10));
    assertTrue(order.deferral(takeover, "settled", 3L, ready("True", 3)).isPresent(),
        "a standby that led only long after launch still lets new clusters go first");
    assertEquals(Optional.empty(), order.deferral(takeover.plus(StartupOrder.WINDOW), "late", 3L, ready("True", 3)));
  }
}
