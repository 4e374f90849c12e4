package io.tidb.operator.controller.tidbcluster.pump;

import io.tidb.operator.controller.tidbcluster.member.MemberDecision;
import io.tidb.operator.controller.tidbcluster.member.ObservedPod;
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
        if (!online.contains(p.name())) {
          return MemberDecision.waitFor("waiting for the upgraded pump of " + p.name()
              + " to be online in the binlog registry (" + progress + ")");
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
}
