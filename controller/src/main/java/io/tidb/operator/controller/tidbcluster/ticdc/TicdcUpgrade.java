package io.tidb.operator.controller.tidbcluster.ticdc;

import io.tidb.operator.controller.tidbcluster.member.HighestFirstRoll;
import io.tidb.operator.controller.tidbcluster.member.MemberDecision;
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
    return HighestFirstRoll.decide(r, (p, progress) -> captured.contains(p.name())
        ? Optional.empty()
        : Optional.of("waiting for the upgraded TiCDC capture of " + p.name() + " to answer ("
            + progress + ")"));
  }

  static MemberDecision scaleIn(int current, int wanted) {
    int target = Math.max(wanted, current - 1);
    return new MemberDecision.Resize(
        target, "scaling in from " + current + " to " + target + " (spec.ticdc.replicas is "
            + wanted + ")");
  }
}
