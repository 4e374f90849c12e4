package io.tidb.operator.controller.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.javaoperatorsdk.operator.processing.retry.RetryExecution;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The retry and leader-election timings docs/controller.md states. */
class OperatorRuntimeTest {

  @Test
  void aFailedReconcileIsRetriedAfterOneSecondDoublingToTenWithoutLimit() {
    RetryExecution retry = OperatorRuntime.retry().initExecution();
    List<Long> delays = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      delays.add(retry.nextDelay().orElseThrow());
    }
    // JOSDK waits the initial interval twice before it doubles
    assertEquals(List.of(1000L, 1000L, 2000L, 4000L, 8000L, 10000L), delays.subList(0, 6));
    assertEquals(10000L, delays.get(29));
  }

  @Test
  void aStandbyMayLeadTenSecondsAfterTheLastRenewalAndTheLeaderGivesUpBefore() {
    assertEquals(10, OperatorRuntime.LEASE_DURATION.toSeconds());
    assertEquals(7, OperatorRuntime.RENEW_DEADLINE.toSeconds());
    assertEquals(1, OperatorRuntime.RETRY_PERIOD.toSeconds());
    // client-go's rules, which fabric8 does not check: the renew deadline is shorter than the
    // lease and longer than a retry with fabric8's jitter (up to 2.2 times the period)
    assertTrue(OperatorRuntime.RENEW_DEADLINE.compareTo(OperatorRuntime.LEASE_DURATION) < 0);
    assertTrue(OperatorRuntime.RENEW_DEADLINE.toMillis() > OperatorRuntime.RETRY_PERIOD.toMillis() * 2.2);
  }
}
