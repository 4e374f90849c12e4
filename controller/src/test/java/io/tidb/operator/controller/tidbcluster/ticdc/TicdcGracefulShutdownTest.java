package io.tidb.operator.controller.tidbcluster.ticdc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tidb.operator.controller.tidbcluster.member.MemberDecision;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterApi.TicdcCapture;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterApi.TicdcDrain;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Decision table of a TiCDC capture's graceful shutdown. */
class TicdcGracefulShutdownTest {

  private static final String POD = "basic-ticdc-2";
  private static final String HOST = "basic-ticdc-2.basic-ticdc-peer.db.svc";

  private static TicdcCapture capture(int ordinal, boolean owner) {
    return new TicdcCapture("c" + ordinal, owner,
        "basic-ticdc-" + ordinal + ".basic-ticdc-peer.db.svc:8301");
  }

  private static TicdcGracefulShutdown.Next begin(List<TicdcCapture> captures) {
    return TicdcGracefulShutdown.begin(POD, HOST, Optional.of(captures));
  }

  @Test
  void aRetryAnswerWaits() {
    assertEquals(new TicdcGracefulShutdown.Next.Step(MemberDecision.waitFor(
            "TiCDC asks to retry listing its captures before basic-ticdc-2 is shut down")),
        TicdcGracefulShutdown.begin(POD, HOST, Optional.empty()));
  }

  @Test
  void aLoneCaptureOrAPodWithoutOneHasNothingToHandOver() {
    assertEquals(new TicdcGracefulShutdown.Next.Done("no other capture to hand tables to"),
        begin(List.of(capture(2, true))));
    assertEquals(new TicdcGracefulShutdown.Next.Done("TiCDC lists no capture for basic-ticdc-2"),
        begin(List.of(capture(0, true), capture(1, false))));
  }

  @Test
  void theOwnerResignsFirst() {
    assertEquals(new TicdcGracefulShutdown.Next.Step(new MemberDecision.Act(
            new TicdcActions.ResignOwner(POD),
            "moving TiCDC ownership off basic-ticdc-2 (capture c2) before it is shut down")),
        begin(List.of(capture(0, false), capture(2, true))));
  }

  @Test
  void anotherCaptureIsDrainedUntilNoTableIsLeft() {
    assertEquals(new TicdcGracefulShutdown.Next.Drain("c2"),
        begin(List.of(capture(0, true), capture(2, false))));
    assertEquals(new TicdcGracefulShutdown.Next.Step(MemberDecision.waitFor(
            "draining the TiCDC capture of basic-ticdc-2: 3 tables left to move to other captures")),
        TicdcGracefulShutdown.afterDrain(POD, new TicdcDrain(3, false, false)));
    assertEquals(new TicdcGracefulShutdown.Next.Step(MemberDecision.waitFor(
            "TiCDC asks to retry draining the capture of basic-ticdc-2")),
        TicdcGracefulShutdown.afterDrain(POD, new TicdcDrain(0, true, false)));
    assertEquals(new TicdcGracefulShutdown.Next.Done("drained"),
        TicdcGracefulShutdown.afterDrain(POD, new TicdcDrain(0, false, false)));
    assertEquals(new TicdcGracefulShutdown.Next.Done("this TiCDC version cannot drain a capture"),
        TicdcGracefulShutdown.afterDrain(POD, new TicdcDrain(0, false, true)));
  }

  @Test
  void beforeAnUpgradeMovesOnTheNextPodGivesUpOwnershipAndTheOwnerMustBeHealthy() {
    assertEquals(Optional.of(new MemberDecision.Act(new TicdcActions.ResignOwner("basic-ticdc-1"),
            "moving TiCDC ownership off basic-ticdc-1, the next pod to upgrade, before"
                + " basic-ticdc-2 is replaced")),
        TicdcGracefulShutdown.handOver(POD, Optional.of("basic-ticdc-1"),
            Optional.of("basic-ticdc-1"), true));
    assertEquals(Optional.of(MemberDecision.waitFor(
            "waiting for the TiCDC owner to report healthy before basic-ticdc-2 is replaced")),
        TicdcGracefulShutdown.handOver(POD, Optional.of("basic-ticdc-1"),
            Optional.of("basic-ticdc-0"), false));
    assertEquals(Optional.empty(), TicdcGracefulShutdown.handOver(POD,
        Optional.of("basic-ticdc-1"), Optional.of("basic-ticdc-0"), true));
  }

  @Test
  void aCaptureIsTheOneWhoseAddressIsThePodsHost() {
    List<TicdcCapture> captures = List.of(capture(1, false),
        new TicdcCapture("x", false, "basic-ticdc-21.basic-ticdc-peer.db.svc:8301"), capture(2, false));
    assertEquals("c2", TicdcGracefulShutdown.captureOf(captures, HOST).orElseThrow().id());
  }
}
