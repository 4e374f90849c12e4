package io.tidb.operator.controller.tidbcluster.ticdc;

import io.tidb.operator.controller.tidbcluster.member.MemberDecision;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterApi;
import java.util.List;
import java.util.Optional;

/**
 * Upstream's graceful shutdown of one TiCDC capture before its pod is restarted or removed, one
 * step per reconcile, bounded by {@code spec.ticdc.gracefulShutdownTimeout} (the caller stops
 * asking once it has passed):
 *
 * <ol>
 *   <li>TiCDC asks to retry (503): wait;
 *   <li>one capture or none, or the pod's capture is not in the list (the pod is down): nothing
 *       to hand over;
 *   <li>the capture is the owner: resign its ownership;
 *   <li>drain it ({@code PUT /api/v1/captures/drain}, asked again each pass for the tables
 *       left) until no table is left (or TiCDC has no drain API);
 *   <li>before an upgrade moves on to the next pod, that pod resigns its ownership, so the owner
 *       moves once, not with every pod;
 *   <li>and the new owner must answer healthy.
 * </ol>
 */
final class TicdcGracefulShutdown {

  private TicdcGracefulShutdown() {}

  /** The capture of {@code pod}: the one whose address starts with the pod's host. */
  static Optional<ClusterApi.TicdcCapture> captureOf(List<ClusterApi.TicdcCapture> captures,
      String podHost) {
    return captures.stream().filter(c -> c.address().startsWith(podHost + ":")
        || c.address().equals(podHost)).findFirst();
  }

  /** What the first steps need: the captures; the drain answer only when one was asked for. */
  sealed interface Next {
    /** Nothing left to do for this pod. */
    record Done(String why) implements Next {}

    /** One more step. */
    record Step(MemberDecision decision) implements Next {}

    /** Drain the capture {@code captureId}; call {@link #afterDrain} with the answer. */
    record Drain(String captureId) implements Next {}
  }

  static Next begin(String pod, String podHost, Optional<List<ClusterApi.TicdcCapture>> captures) {
    if (captures.isEmpty()) {
      return new Next.Step(MemberDecision.waitFor(
          "TiCDC asks to retry listing its captures before " + pod + " is shut down"));
    }
    List<ClusterApi.TicdcCapture> list = captures.get();
    if (list.size() <= 1) {
      return new Next.Done("no other capture to hand tables to");
    }
    Optional<ClusterApi.TicdcCapture> self = captureOf(list, podHost);
    if (self.isEmpty()) {
      return new Next.Done("TiCDC lists no capture for " + pod);
    }
    if (self.get().owner()) {
      return new Next.Step(new MemberDecision.Act(new TicdcActions.ResignOwner(pod),
          "moving TiCDC ownership off " + pod + " (capture " + self.get().id()
              + ") before it is shut down"));
    }
    return new Next.Drain(self.get().id());
  }

  static Next afterDrain(String pod, ClusterApi.TicdcDrain answer) {
    if (answer.unsupported()) {
      return new Next.Done("this TiCDC version cannot drain a capture");
    }
    if (answer.retry()) {
      return new Next.Step(MemberDecision.waitFor(
          "TiCDC asks to retry draining the capture of " + pod));
    }
    if (answer.tableCount() > 0) {
      return new Next.Step(MemberDecision.waitFor(
          "draining the TiCDC capture of " + pod + ": " + answer.tableCount()
              + " tables left to move to other captures"));
    }
    return new Next.Done("drained");
  }

  /**
   * Before an upgrade replaces {@code pod}: the next pod to be upgraded gives up ownership if it
   * has it, and the owner answers healthy.
   *
   * @param owner the current owner's pod, if known
   */
  static Optional<MemberDecision> handOver(String pod, Optional<String> next, Optional<String> owner,
      boolean ownerHealthy) {
    if (next.isPresent() && owner.isPresent() && next.get().equals(owner.get())) {
      return Optional.of(new MemberDecision.Act(new TicdcActions.ResignOwner(next.get()),
          "moving TiCDC ownership off " + next.get() + ", the next pod to upgrade, before " + pod
              + " is replaced"));
    }
    if (!ownerHealthy) {
      return Optional.of(MemberDecision.waitFor(
          "waiting for the TiCDC owner to report healthy before " + pod + " is replaced"));
    }
    return Optional.empty();
  }
}
