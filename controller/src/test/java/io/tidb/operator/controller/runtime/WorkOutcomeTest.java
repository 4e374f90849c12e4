package io.tidb.operator.controller.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** When the skeleton reconciles again: the converging requeue, a periodic recheck, or never. */
class WorkOutcomeTest {

  private static final Duration CONVERGING = Duration.ofSeconds(5);

  @Test
  void convergingComesBackAtTheConvergingPace() {
    assertEquals(Optional.of(CONVERGING), WorkOutcome.converging("job", "Job x to finish").requeueAfter(CONVERGING));
  }

  @Test
  void aPeriodicRecheckIsConvergedAndComesBackAfterItsOwnPeriod() {
    WorkOutcome periodic = WorkOutcome.convergedRecheckAfter("log-checkpoint", Duration.ofMinutes(1));
    assertEquals(WorkOutcome.CONVERGED, periodic.result(), "not counted as converging in the metrics");
    assertEquals("log-checkpoint", periodic.step());
    assertEquals(Optional.empty(), periodic.waitingFor());
    assertTrue(!periodic.converging());
    assertEquals(Optional.of(Duration.ofMinutes(1)), periodic.requeueAfter(CONVERGING));
  }

  @Test
  void convergedAndPausedDoNotComeBack() {
    assertEquals(Optional.empty(), WorkOutcome.converged().requeueAfter(CONVERGING));
    assertEquals(Optional.empty(), WorkOutcome.paused().requeueAfter(CONVERGING));
  }

  @Test
  void aRecheckNeedsAPositivePeriod() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> WorkOutcome.convergedRecheckAfter("log-checkpoint", Duration.ZERO));
    assertEquals("recheckAfter: Invalid value: \"PT0S\": must be positive", e.getMessage());
  }
}
