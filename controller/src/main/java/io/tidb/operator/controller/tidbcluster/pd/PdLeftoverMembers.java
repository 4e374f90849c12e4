package io.tidb.operator.controller.tidbcluster.pd;

import io.tidb.operator.api.v1alpha1.cluster.PdMember;
import io.tidb.operator.controller.tidbcluster.member.MemberDecision;
import io.tidb.operator.controller.tidbcluster.member.Rollout;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A PD member left behind by a scale-in: its pod joined PD just after the operator read PD's
 * members and found none for it, so the StatefulSet shrank without {@code DELETE members/name}.
 * Etcd keeps such a member, unhealthy, and it counts against PD's quorum. A member of this
 * cluster whose ordinal is at or above the StatefulSet's replicas and that has no pod is removed
 * ({@code DELETE members/name/<name>}), one per pass, while nothing else is in progress.
 */
public final class PdLeftoverMembers {

  private PdLeftoverMembers() {}

  /**
   * @param cluster the TidbCluster's name
   * @param members this cluster's PD members by name, as PD reported them this reconcile
   * @param rollout the PD StatefulSet and its pods
   */
  public static Optional<MemberDecision> decide(
      String cluster, Map<String, PdMember> members, Rollout rollout) {
    String prefix = cluster + "-pd-";
    for (String name : new TreeMap<>(members).keySet()) {
      if (!name.startsWith(prefix)) {
        continue;
      }
      int ordinal;
      try {
        ordinal = Integer.parseInt(name.substring(prefix.length()));
      } catch (NumberFormatException e) {
        continue;
      }
      if (ordinal >= rollout.replicas() && rollout.pod(ordinal).isEmpty()) {
        return Optional.of(
            new MemberDecision.Act(
                new PdActions.DeleteMember(name),
                "removing member " + name + " from the PD cluster: the StatefulSet has "
                    + rollout.replicas() + " replicas and no pod " + name
                    + " exists (it joined PD as it was being scaled in)"));
      }
    }
    return Optional.empty();
  }
}
