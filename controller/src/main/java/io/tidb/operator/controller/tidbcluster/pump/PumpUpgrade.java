package io.tidb.operator.controller.tidbcluster.pump;

import io.tidb.operator.controller.tidbcluster.member.HighestFirstRoll;
import io.tidb.operator.controller.tidbcluster.member.MemberDecision;
import io.tidb.operator.controller.tidbcluster.member.Rollout;
import java.util.Optional;
import java.util.Set;

/**
 * Pump's rolling upgrade: one pod per pass from the highest ordinal down (what upstream's plain
 * StatefulSet rolling update does); an upgraded pod must be Ready and its pump {@code online} in
 * the binlog registry before the next one is replaced, so TiDB always has a pump to write to. It
 * runs only while PD, TiFlash and TiKV are not being upgraded (the earlier components' activity
 * holds it, as upstream).
 */
final class PumpUpgrade {

  private PumpUpgrade() {}

  /** @param online the pods whose pump the registry lists as online */
  static MemberDecision decide(Rollout r, Set<String> online) {
    return HighestFirstRoll.decide(r, (p, progress) -> online.contains(p.name())
        ? Optional.empty()
        : Optional.of("waiting for the upgraded pump of " + p.name()
            + " to be online in the binlog registry (" + progress + ")"));
  }
}
