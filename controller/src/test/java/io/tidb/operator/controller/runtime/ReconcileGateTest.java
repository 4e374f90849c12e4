package io.tidb.operator.controller.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A stop lets running reconciles finish and starts no new one. */
class ReconcileGateTest {

  @Test
  void aClosedGateRefusesNewReconcilesAndRunningOnesGoOn() throws Exception {
    ReconcileGate gate = new ReconcileGate();
    assertTrue(gate.enter());
    assertTrue(gate.enter());
    gate.close();
    assertFalse(gate.enter(), "closed: nothing new starts");
    assertEquals(2, gate.awaitDrained(Duration.ofMillis(50)), "the two running are still counted");
    gate.exit();
    gate.exit();
    assertEquals(0, gate.awaitDrained(Duration.ZERO));
    assertThrows(IllegalStateException.class, gate::exit, "an exit without an enter is a bug");
  }

  @Test
  void awaitingReturnsAsSoonAsTheLastReconcileEnds() throws Exception {
    ReconcileGate gate = new ReconcileGate();
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch finish = new CountDownLatch(1);
    CompletableFuture<Void> reconcile = CompletableFuture.runAsync(() -> {
      assertTrue(gate.enter());
      entered.countDown();
      try {
        finish.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      gate.exit();
    });
    assertTrue(entered.await(5, TimeUnit.SECONDS));
    gate.close();
    CompletableFuture<Integer> drained = CompletableFuture.supplyAsync(() -> {
      try {
        return gate.awaitDrained(Duration.ofSeconds(30));
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
    });
    assertFalse(drained.isDone(), "waits while a reconcile runs");
    finish.countDown();
    assertEquals(0, drained.get(5, TimeUnit.SECONDS), "drained well before the 30 s timeout");
    reconcile.get(5, TimeUnit.SECONDS);
  }

  @Test
  void aStopClosesEveryGateFirstAndSharesOneTimeout() throws Exception {
    ReconcileGate idle = new ReconcileGate();
    ReconcileGate busy = new ReconcileGate();
    assertTrue(busy.enter());
    OperatorRuntime.drain(List.of(busy, idle), Duration.ofMillis(100));
    assertFalse(idle.enter(), "every gate is closed, also the one behind a busy gate");
    assertFalse(busy.enter());
    assertEquals(1, busy.awaitDrained(Duration.ZERO), "the timeout passed with the reconcile still running");
  }
}
