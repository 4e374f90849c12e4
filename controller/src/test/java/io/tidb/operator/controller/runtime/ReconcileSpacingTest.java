package io.tidb.operator.controller.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ReconcileSpacingTest {

  private final AtomicLong now = new AtomicLong(5_000_000_000L);
  private final ReconcileSpacing spacing = new ReconcileSpacing(Duration.ofSeconds(1), now::get);

  @Test
  void theFirstReconcileOfAResourceStartsAtOnce() {
    assertEquals(Optional.empty(), spacing.isLimited(spacing.initState()));
  }

  @Test
  void aReconcileAskedForSoonerWaitsExactlyForTheRestOfTheSpacing() {
    ReconcileSpacing.LastStart state = spacing.initState();
    spacing.isLimited(state);
    now.addAndGet(300_000_000L);
    assertEquals(Optional.of(Duration.ofMillis(700)), spacing.isLimited(state));
    now.addAndGet(500_000_000L);
    // a refusal does not move the last start: the wait keeps counting from it
    assertEquals(Optional.of(Duration.ofMillis(200)), spacing.isLimited(state));
    now.addAndGet(200_000_000L);
    assertEquals(Optional.empty(), spacing.isLimited(state));
    // and the one let in starts the next spacing
    now.addAndGet(1_000_000L);
    assertEquals(Optional.of(Duration.ofMillis(999)), spacing.isLimited(state));
  }

  @Test
  void eachResourceHasItsOwnSpacing() {
    ReconcileSpacing.LastStart first = spacing.initState();
    ReconcileSpacing.LastStart second = spacing.initState();
    spacing.isLimited(first);
    now.addAndGet(100_000_000L);
    assertEquals(Optional.empty(), spacing.isLimited(second));
    assertEquals(Optional.of(Duration.ofMillis(900)), spacing.isLimited(first));
  }

  @Test
  void zeroSpacingLetsEveryReconcileIn() {
    ReconcileSpacing none = new ReconcileSpacing(Duration.ZERO, now::get);
    ReconcileSpacing.LastStart state = none.initState();
    assertEquals(Optional.empty(), none.isLimited(state));
    assertEquals(Optional.empty(), none.isLimited(state));
  }

  @Test
  void aNegativeSpacingIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> new ReconcileSpacing(Duration.ofMillis(-1)));
  }
}
