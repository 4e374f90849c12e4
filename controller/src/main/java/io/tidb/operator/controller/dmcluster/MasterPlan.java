package io.tidb.operator.controller.dmcluster;

import io.tidb.operator.controller.tidbcluster.member.ObservedPod;
import io.tidb.operator.controller.tidbcluster.member.Rollout;
import io.tidb.operator.controller.tidbcluster.member.StatefulSetPlan;
import java.util.Map;
import java.util.Optional;

/**
 * dm-master's scale and upgrade rules, as upstream's dm-master scaler and upgrader, decided from
 * what is observed. Pure.
 *
 * <ul>
 *   <li>No StatefulSet: create it with the spec's replicas.
 *   <li>The DM API did not answer: hold replicas and every pod's revision (no destructive step).
 *   <li>Scale out one member at a time.
 *   <li>Scale in the highest ordinal, one at a time: a leader (at an ordinal above 0) hands over
 *       leadership first; the member is deleted through the API while the remaining members keep
 *       a quorum; the StatefulSet shrinks once the member is gone.
 *   <li>Upgrade from the highest ordinal down, one pod at a time (the partition): an upgraded pod
 *       must be Ready and a healthy member before the next goes; the leader hands over leadership
 *       before its pod is released, unless it is the only member.
 * </ul>
 */
public final class MasterPlan {

  private MasterPlan() {}

  /**
   * @param wanted the spec's replicas
   * @param rollout the StatefulSet and its pods, empty when there is none yet
   * @param synced the DM API answered this reconcile
   * @param health the DM API's members: name to alive
   * @param leader the leader's name, empty when there is none
   */
  public static MasterStep decide(
      int wanted, Optional<Rollout> rollout, boolean synced, Map<String, Boolean> health,
      Optional<String> leader) {
    if (rollout.isEmpty()) {
      return MasterStep.apply(new StatefulSetPlan(wanted, 0));
    }
    Rollout r = rollout.get();
    int replicas = r.replicas();
    StatefulSetPlan hold = new StatefulSetPlan(replicas, Math.min(r.partition(), replicas));
    if (!synced) {
      return MasterStep.waiting(StatefulSetPlan.holding(replicas), "the dm-master API to answer");
    }
    if (!r.observed()) {
      return MasterStep.waiting(hold, "the StatefulSet controller to observe " + r.name());
    }
    if (r.needsRoll() && !r.onDelete()) {
      return upgrade(r, health, leader);
    }
    if (wanted > replicas) {
      return MasterStep.waiting(StatefulSetPlan.holding(replicas + 1),
          "dm-master to scale out to " + wanted);
    }
    if (wanted < replicas) {
      return scaleIn(r, health, leader, wanted);
    }
    return MasterStep.apply(StatefulSetPlan.holding(replicas));
  }

  private static MasterStep scaleIn(Rollout r, Map<String, Boolean> health, Optional<String> leader, int wanted) {
    int ordinal = r.replicas() - 1;
    String member = r.podName(ordinal);
    StatefulSetPlan hold = StatefulSetPlan.holding(r.replicas());
    if (!health.containsKey(member)) {
      return MasterStep.waiting(StatefulSetPlan.holding(ordinal), "dm-master to scale in to " + wanted);
    }
    if (ordinal > 0 && leader.filter(member::equals).isPresent()) {
      return MasterStep.act(hold, MasterStep.Action.EVICT_LEADER, member,
          member + " to hand over dm-master leadership before it is removed");
    }
    long remaining = health.size() - 1;
    long aliveRemaining = health.entrySet().stream()
        .filter(e -> !e.getKey().equals(member) && Boolean.TRUE.equals(e.getValue())).count();
    if (remaining > 0 && aliveRemaining * 2 <= remaining) {
      return MasterStep.waiting(hold, "more dm-master members to be healthy: removing " + member
          + " would leave " + aliveRemaining + " of " + remaining + " alive, no quorum");
    }
    return MasterStep.act(StatefulSetPlan.holding(ordinal), MasterStep.Action.DELETE_MEMBER, member,
        "dm-master to scale in to " + wanted);
  }

  private static MasterStep upgrade(Rollout r, Map<String, Boolean> health, Optional<String> leader) {
    int replicas = r.replicas();
    StatefulSetPlan hold = new StatefulSetPlan(replicas, Math.min(r.partition(), replicas));
    for (int ordinal = replicas - 1; ordinal >= 0; ordinal--) {
      String name = r.podName(ordinal);
      Optional<ObservedPod> pod = r.pod(ordinal);
      if (pod.isEmpty()) {
        return MasterStep.waiting(hold, "pod " + name + " to be recreated");
      }
      if (r.isUpdated(pod.get())) {
        if (!pod.get().ready() || !Boolean.TRUE.equals(health.get(name))) {
          return MasterStep.waiting(hold, "upgraded " + name + " to be Ready and a healthy member");
        }
        continue;
      }
      if (replicas > 1 && leader.filter(name::equals).isPresent()) {
        return MasterStep.act(hold, MasterStep.Action.EVICT_LEADER, name,
            name + " to hand over dm-master leadership before its upgrade");
      }
      return MasterStep.waiting(new StatefulSetPlan(replicas, ordinal), "dm-master to upgrade " + name);
    }
    return MasterStep.waiting(hold, "the StatefulSet to report the upgrade done");
  }
}
