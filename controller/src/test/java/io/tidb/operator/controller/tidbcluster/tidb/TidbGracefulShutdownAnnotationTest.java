package io.tidb.operator.controller.tidbcluster.tidb;

import static io.tidb.operator.controller.fixtures.Rollouts.LONG_AGO;
import static io.tidb.operator.controller.fixtures.Rollouts.OLD;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.tidb.operator.controller.fixtures.Rollouts;
import io.tidb.operator.controller.tidbcluster.member.MemberDecision;
import io.tidb.operator.controller.tidbcluster.member.ObservedPod;
import io.tidb.operator.controller.tidbcluster.member.PodActions;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TidbGracefulShutdownAnnotationTest {

  private static final String KEY = TidbGracefulShutdownAnnotation.KEY;

  private static Rollouts.Builder pods() {
    return Rollouts.rollout("basic-tidb", 3).allReady(OLD);
  }

  private static ObservedPod annotated(int ordinal, String value, boolean terminating) {
    return new ObservedPod(ordinal, "basic-tidb-" + ordinal, "uid-" + ordinal, OLD,
        Optional.of(LONG_AGO), LONG_AGO, terminating, Map.of(KEY, value));
  }

  private static MemberDecision decide(Rollouts.Builder pods, Optional<String> busy) {
    return TidbGracefulShutdownAnnotation.decide(
        new TidbGracefulShutdownAnnotation.Facts(pods.build(), busy));
  }

  @Test
  void deletePodDeletesThePod() {
    MemberDecision d = decide(pods().pod(annotated(1, "delete-pod", false)), Optional.empty());
    MemberDecision.Act a = assertInstanceOf(MemberDecision.Act.class, d);
    assertEquals(new PodActions.DeletePod("basic-tidb-1", "uid-1"), a.action());
    assertEquals(
        "deleting pod basic-tidb-1 (tidb.pingcap.com/tidb-graceful-shutdown=delete-pod): TiDB"
            + " shuts down gracefully and the pod is recreated",
        a.message());
  }

  @Test
  void noneUnknownAndTerminatingDoNothing() {
    assertEquals(MemberDecision.IDLE, decide(pods(), Optional.empty()));
    assertEquals(MemberDecision.IDLE,
        decide(pods().pod(annotated(1, "none", false)), Optional.empty()));
    assertEquals(MemberDecision.IDLE,
        decide(pods().pod(annotated(1, "now", false)), Optional.empty()));
    assertEquals(MemberDecision.IDLE,
        decide(pods().pod(annotated(1, "delete-pod", true)), Optional.empty()));
  }

  @Test
  void anotherComponentBusyHoldsTheDeletion() {
    assertEquals(
        MemberDecision.waitFor(
            "pod basic-tidb-1 asks tidb.pingcap.com/tidb-graceful-shutdown=delete-pod; waits for"
                + " TiKV: upgrading basic-tikv-2"),
        decide(pods().pod(annotated(1, "delete-pod", false)),
            Optional.of("TiKV: upgrading basic-tikv-2")));
  }

  @Test
  void anotherTidbPodNotReadyHoldsTheDeletion() {
    assertEquals(
        MemberDecision.waitFor(
            "pod basic-tidb-1 asks tidb.pingcap.com/tidb-graceful-shutdown=delete-pod; waiting"
                + " for pod basic-tidb-0 to be Ready first"),
        decide(pods().notReady(0, OLD).pod(annotated(1, "delete-pod", false)), Optional.empty()));
  }
}
