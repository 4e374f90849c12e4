package io.tidb.operator.controller.tidbcluster.tiproxy;

import io.tidb.operator.controller.tidbcluster.member.HighestFirstRoll;
import io.tidb.operator.controller.tidbcluster.member.MemberDecision;
import io.tidb.operator.controller.tidbcluster.member.Rollout;
import java.time.Instant;
import java.util.Optional;

/**
 * TiProxy's scale and upgrade rules, upstream's. Scaling comes first: while {@code
 * spec.tiproxy.replicas} differs from the StatefulSet's, no pod is upgraded ({@code MemberStep}
 * picks the scale before the upgrade and calls {@link #decide} only once the replicas agree); the
 * scale runs one pod at a time, highest ordinal first on scale-in. The rolling upgrade replaces one pod per
 * pass from the highest ordinal down; an upgraded pod must be Ready for {@value
 * TiproxyStep#MIN_READY_ANNOTATION} seconds (0 unless set) before the next one goes.
 */
final class TiproxyUpgrade {

  private TiproxyUpgrade() {}

  /** One pod at a time, the highest ordinal first. */
  static MemberDecision scaleIn(int current, int wanted) {
    int target = Math.max(wanted, current - 1);
    return new MemberDecision.Resize(target, "scaling in from " + current + " to " + target
        + " (spec.tiproxy.replicas is " + wanted + ")");
  }

  static MemberDecision decide(Rollout r, long minReadySeconds, Instant now) {
    return HighestFirstRoll.decide(r, (p, progress) -> p.readyFor(minReadySeconds, now)
        ? Optional.empty()
        : Optional.of("waiting for upgraded pod " + p.name() + " to stay Ready for "
            + minReadySeconds + " s (" + TiproxyStep.MIN_READY_ANNOTATION + "; " + progress + ")"));
  }
}
