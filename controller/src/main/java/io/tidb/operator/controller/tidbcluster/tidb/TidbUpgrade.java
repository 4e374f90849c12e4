package io.tidb.operator.controller.tidbcluster.tidb;

import io.tidb.operator.controller.tidbcluster.member.HighestFirstRoll;
import io.tidb.operator.controller.tidbcluster.member.MemberDecision;
import io.tidb.operator.controller.tidbcluster.member.ObservedPod;
import io.tidb.operator.controller.tidbcluster.member.Rollout;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;

/**
 * TiDB's rules. Scale-in lowers the replicas by at most {@code scaleInParallelism} (default 1) per
 * pass (TiDB keeps no data; its volumes, if any, are marked for deferred deletion). The rolling
 * upgrade goes one pod per pass from the highest ordinal down; each upgraded pod must be Ready,
 * Ready for {@code tidb.pingcap.com/tidb-min-ready-seconds} and answer its status port before the
 * next one is replaced.
 */
public final class TidbUpgrade {

  private TidbUpgrade() {}

  /** @param healthy the pods whose TiDB status port answered 200 */
  public record Facts(Rollout rollout, Set<String> healthy, long minReadySeconds, Instant now) {}

  public static MemberDecision scaleIn(int current, int wanted, int parallelism) {
    int target = Math.max(wanted, current - Math.max(1, parallelism));
    return new MemberDecision.Resize(
        target, "scaling in from " + current + " to " + target + " (spec.tidb.replicas is "
            + wanted + ")");
  }

  /** The upgraded pods whose status port the rule asks about: those that are Ready. */
  public static Set<String> healthCandidates(Rollout r) {
    Set<String> names = new java.util.TreeSet<>();
    for (ObservedPod p : r.pods().values()) {
      if (p.ordinal() < r.replicas() && r.isUpdated(p) && p.ready()) {
        names.add(p.name());
      }
    }
    return names;
  }

  public static MemberDecision decide(Facts f) {
    return HighestFirstRoll.decide(f.rollout(), (p, progress) -> {
      if (!p.readyFor(f.minReadySeconds(), f.now())) {
        return Optional.of("waiting for upgraded pod " + p.name() + " to stay Ready for "
            + f.minReadySeconds() + " s (tidb.pingcap.com/tidb-min-ready-seconds; " + progress + ")");
      }
      if (!f.healthy().contains(p.name())) {
        return Optional.of("waiting for upgraded TiDB " + p.name() + " to answer its status port ("
            + progress + ")");
      }
      return Optional.empty();
    });
  }
}
