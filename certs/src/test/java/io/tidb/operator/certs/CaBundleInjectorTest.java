package io.tidb.operator.certs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** How the injector runs its configurations' patches together (the patches themselves: SecretCertificateManagerIT). */
class CaBundleInjectorTest {

  @Test
  void theTasksRunAtTheSameTimeAndTheirResultsComeInOrder() {
    // Each task waits for all three to have started: run one after another, they would time out.
    CountDownLatch started = new CountDownLatch(3);
    Supplier<Boolean> first = awaitingTheOthers(started, true);
    Supplier<Boolean> second = awaitingTheOthers(started, false);
    Supplier<Boolean> third = awaitingTheOthers(started, true);

    assertEquals(List.of(true, false, true), CaBundleInjector.runTogether(List.of(first, second, third)));
  }

  @Test
  void theFirstFailureInOrderIsThrownOnceEveryTaskHasFinished() {
    IllegalStateException firstFailure = new IllegalStateException("first");
    AtomicBoolean lastFinished = new AtomicBoolean();
    List<Supplier<Boolean>> tasks = List.of(
        () -> true,
        () -> {
          throw firstFailure;
        },
        () -> {
          throw new IllegalArgumentException("second");
        },
        () -> {
          sleep(200);
          lastFinished.set(true);
          return true;
        });

    IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> CaBundleInjector.runTogether(tasks));
    assertSame(firstFailure, thrown);
    assertTrue(lastFinished.get(), "thrown only after the slow task finished");
  }

  @Test
  void noTaskNoResult() {
    assertEquals(List.of(), CaBundleInjector.<Boolean>runTogether(List.of()));
  }

  private static Supplier<Boolean> awaitingTheOthers(CountDownLatch started, boolean result) {
    return () -> {
      started.countDown();
      try {
        if (!started.await(10, TimeUnit.SECONDS)) {
          throw new IllegalStateException("the other tasks did not start meanwhile");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
      return result;
    };
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
