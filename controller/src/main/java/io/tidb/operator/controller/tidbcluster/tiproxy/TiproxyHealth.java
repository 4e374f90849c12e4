package io.tidb.operator.controller.tidbcluster.tiproxy;

import io.tidb.operator.api.v1alpha1.cluster.TiproxyMember;
import io.tidb.operator.controller.runtime.Conditions;
import java.time.Instant;
import java.util.Objects;

/** How one TiProxy member's health is recorded from one reconcile to the next. */
final class TiproxyHealth {

  private TiproxyHealth() {}

  /**
   * {@code now} as the transition time when the health changed (or the member is new), else the
   * time it had; without this every reconcile would rewrite the status.
   */
  static TiproxyMember keepTransitionTime(TiproxyMember now, TiproxyMember before, Instant at) {
    boolean same = before != null && Objects.equals(before.getHealth(), now.getHealth())
        && before.getLastTransitionTime() != null;
    now.setLastTransitionTime(same ? before.getLastTransitionTime() : Conditions.timestamp(at));
    return now;
  }
}
