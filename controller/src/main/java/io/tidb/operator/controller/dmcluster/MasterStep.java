package io.tidb.operator.controller.dmcluster;

import io.tidb.operator.controller.tidbcluster.member.StatefulSetPlan;
import java.util.Optional;

/**
 * What one reconcile does to dm-master: the StatefulSet numbers to apply, and at most one DM API
 * action before them.
 *
 * @param plan replicas and partition to apply
 * @param action the DM API call to make first, if any
 * @param member the member the action is about
 * @param waitingFor why the component is not done, empty when it is
 */
public record MasterStep(StatefulSetPlan plan, Action action, String member, Optional<String> waitingFor) {

  /** A DM API call a step makes. */
  public enum Action {
    NONE,
    /** {@code PUT /apis/v1alpha1/leader/1} on {@link #member}: it hands leadership over. */
    EVICT_LEADER,
    /** {@code DELETE /apis/v1alpha1/members/master/<member>}, then the StatefulSet shrinks by one. */
    DELETE_MEMBER
  }

  static MasterStep apply(StatefulSetPlan plan) {
    return new MasterStep(plan, Action.NONE, null, Optional.empty());
  }

  static MasterStep waiting(StatefulSetPlan plan, String why) {
    return new MasterStep(plan, Action.NONE, null, Optional.of(why));
  }

  static MasterStep act(StatefulSetPlan plan, Action action, String member, String why) {
    return new MasterStep(plan, action, member, Optional.of(why));
  }
}
