package io.tidb.operator.controller.tidbcluster.pump;

import io.tidb.operator.controller.tidbcluster.member.MemberDecision;
import io.tidb.operator.controller.tidbcluster.member.ObservedPod;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterApi;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Upstream's Pump scale-in, one pod at a time from the highest ordinal, one step per reconcile:
 *
 * <ol>
 *   <li>the StatefulSet must have as many pods as it asks for before one more goes;
 *   <li>the pod's pump in the binlog registry is {@code online}: ask it to go offline ({@code
 *       PUT /state/<nodeId>/close}) and wait;
 *   <li>it is {@code offline}: the pod goes (its claims are kept, marked for deferred deletion);
 *   <li>any other state (e.g. {@code closing}, {@code paused}): wait;
 *   <li>the pod's pump is not registered: a pod that is not Ready goes once it is older than
 *       {@link #UNREGISTERED_GRACE} (it never started serving); a Ready pod that is not registered
 *       waits, since nothing says its binlog is safe to drop.
 * </ol>
 */
final class PumpScaleIn {

  /** Pump's states in the registry (tidb-binlog's node states). */
  static final String ONLINE = "online";
  static final String OFFLINE = "offline";

  /**
   * How long an unregistered, unready pod is given to register before it is removed: upstream's
   * five resync periods, at upstream's default resync of 30 s.
   */
  static final Duration UNREGISTERED_GRACE = Duration.ofSeconds(150);

  private PumpScaleIn() {}

  /** What the decision needs to know about the pod to remove. */
  record Facts(int current, int wanted, int statefulSetPods, String podName,
      Optional<ObservedPod> pod, Optional<ClusterApi.PumpNode> node, Instant now) {}

  static MemberDecision decide(Facts f) {
    if (f.statefulSetPods() != f.current()) {
      return MemberDecision.waitFor("waiting for the StatefulSet to have its " + f.current()
          + " pods (it has " + f.statefulSetPods() + ") before " + f.podName() + " goes");
    }
    int target = f.current() - 1;
    MemberDecision shrink = new MemberDecision.Resize(target, "scaling in from " + f.current()
        + " to " + target + " (spec.pump.replicas is " + f.wanted() + ")");
    if (f.node().isPresent()) {
      ClusterApi.PumpNode node = f.node().get();
      if (ONLINE.equals(node.state())) {
        return new MemberDecision.Act(new PumpActions.Offline(f.podName(), node.nodeId()),
            "asking pump " + node.nodeId() + " (" + f.podName() + ") to go offline before its"
                + " pod is removed");
      }
      if (OFFLINE.equals(node.state())) {
        return shrink;
      }
      return MemberDecision.waitFor("waiting for pump " + node.nodeId() + " (" + f.podName()
          + ") to be offline; the binlog registry says " + node.state());
    }
    if (f.pod().isPresent() && f.pod().get().ready()) {
      return MemberDecision.waitFor("pump pod " + f.podName() + " is Ready but not in the binlog"
          + " registry; waiting for it to register before it is taken offline");
    }
    if (f.pod().isPresent() && f.pod().get().created() != null
        && f.now().isBefore(f.pod().get().created().plus(UNREGISTERED_GRACE))) {
      return MemberDecision.waitFor("pump pod " + f.podName() + " is not Ready and not"
          + " registered; giving it " + UNREGISTERED_GRACE.toSeconds() + " s from its creation"
          + " to register before it is removed");
    }
    return shrink;
  }
}
