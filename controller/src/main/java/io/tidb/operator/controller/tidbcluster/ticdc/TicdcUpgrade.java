package io.tidb.operator.controller.tidbcluster.ticdc;

import io.tidb.operator.controller.tidbcluster.member.MemberDecision;
import io.tidb.operator.controller.tidbcluster.member.ObservedPod;
import io.tidb.operator.controller.tidbcluster.member.Rollout;
import java.util.Optional;
import java.util.Set;

/**
 * TiCDC's rules. The rolling upgrade (upstream's): one pod per pass from the highest ordinal
 * down; an upgraded pod must be Ready and its capture answer {@code /status} before the next one
 * is replaced; the caller shuts the next one down gracefully first ({@link
 * TicdcGracefulShutdown}). Scale-in removes the highest ordinal, one pod at a time, after its
 * graceful shutdown.
 */
final class TicdcUpgrade {

  private TicdcUpgrade() {}

  /** @param captured the pods whose capture answered this reconcile */
  static MemberDecision decide(Rollout r, Set<String> captured) {
    String progress = r.updatedCount() + " of " + r.replicas() + " done";
    for (int i = r.replicas() - 1; i >= 0; i--) {
      Optional<ObservedPod> pod = r.pod(i);
      if (pod.isEmpty() || pod.get().terminating()) {
        return MemberDecision.waitFor(
            "waiting for pod " + r.podName(i) + " to be recreated (" + progress + ")");
      }
      ObservedPod p = pod.get();
      if (r.isUpdated(p)) {
        if (!p.ready()) {
          return MemberDecision.waitFor(
              "waiting for upgraded pod " + p.name() + " to be Ready (" + progress + ")");
        }
        if (!captured.contains(p.name())) {
          return MemberDecision.waitFor(
              "waiting for the upgraded TiCDC capture of " + p.name() + " to answer ("
                  + progress + ")");
        }
        continue;
      }
      if (i >= r.partition()) {
        return MemberDecision.waitFor(
            "waiting for the StatefulSet controller to replace pod " + p.name() + " ("
                + progress + ")");
      }
      return new MemberDecision.Roll(i, "upgrading " + p.name() + " (" + progress + ")");
    }
    return MemberDecision.IDLE;
  }

  static MemberDecision scaleIn(int current, int wanted) {
    int target = Math.max(wanted, current - 1);
    return new MemberDecision.Resize(
        target, "scaling in from " + current + " to " + target + " (spec.ticdc.replicas is "
            + wanted + ")");
  }
}
