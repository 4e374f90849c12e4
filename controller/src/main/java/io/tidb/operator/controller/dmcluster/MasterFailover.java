package io.tidb.operator.controller.dmcluster;

import io.tidb.operator.api.v1alpha1.dm.MasterFailureMember;
import io.tidb.operator.api.v1alpha1.dm.MasterMember;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * dm-master failover, upstream's rules, decided from status. Pure.
 *
 * <ul>
 *   <li>Only while the API answered and more than half of the members are healthy.
 *   <li>When every member is healthy again (as many as the StatefulSet should run), the failure
 *       members are forgotten, so the StatefulSet shrinks back to the spec's replicas.
 *   <li>No more than {@code maxFailoverCount} members failed over.
 *   <li>A member unhealthy for longer than the period (since its {@code lastTransitionTime}), whose
 *       pod is one of the desired ordinals, is recorded as a failure member.
 *   <li>A recorded member not yet deleted is deleted through the API, and its pod and data claim go,
 *       so the StatefulSet recreates it empty and it joins as a new member; the replicas grow by one.
 * </ul>
 *
 * @param action what to do
 * @param pod the pod it is about
 * @param reason why, in plain words
 */
public record MasterFailover(Action action, String pod, String reason) {

  public enum Action { NONE, RECOVER, MARK, DELETE }

  static MasterFailover none(String reason) {
    return new MasterFailover(Action.NONE, null, reason);
  }

  /**
   * @param members status members (health and lastTransitionTime)
   * @param failures status failure members
   * @param desiredReplicas the StatefulSet's desired replicas (spec plus deleted failure members)
   */
  public static MasterFailover decide(
      boolean enabled, boolean synced, Map<String, MasterMember> members,
      Map<String, MasterFailureMember> failures, String setName, int desiredReplicas,
      int maxFailoverCount, Duration period, Instant now) {
    if (!enabled) {
      return none("failover is off");
    }
    if (!synced) {
      return none("the dm-master API did not answer");
    }
    Map<String, MasterFailureMember> failed = failures == null ? Map.of() : failures;
    long healthy = members.values().stream().filter(m -> Boolean.TRUE.equals(m.getHealth())).count();
    if (!failed.isEmpty() && healthy == members.size() && members.size() == desiredReplicas) {
      return new MasterFailover(Action.RECOVER, null, "every dm-master member is healthy again");
    }
    if (healthy * 2 <= members.size()) {
      return none("dm-master has no healthy quorum: " + healthy + " of " + members.size());
    }
    Optional<Map.Entry<String, MasterFailureMember>> pending = failed.entrySet().stream()
        .filter(e -> !Boolean.TRUE.equals(e.getValue().getMemberDeleted())).findFirst();
    if (pending.isPresent()) {
      return new MasterFailover(Action.DELETE, pending.get().getKey(), "failed-over member to replace");
    }
    long deleted = failed.values().stream().filter(f -> Boolean.TRUE.equals(f.getMemberDeleted())).count();
    if (deleted >= maxFailoverCount) {
      return none("maxFailoverCount " + maxFailoverCount + " reached");
    }
    for (MasterMember m : members.values()) {
      if (Boolean.TRUE.equals(m.getHealth()) || failed.containsKey(m.getName())
          || m.getLastTransitionTime() == null || !desired(setName, desiredReplicas, m.getName())) {
        continue;
      }
      Instant since = Instant.parse(m.getLastTransitionTime());
      if (!since.plus(period).isAfter(now)) {
        return new MasterFailover(Action.MARK, m.getName(),
            m.getName() + " has been unhealthy since " + m.getLastTransitionTime());
      }
    }
    return none("no member unhealthy for longer than " + period);
  }

  /** Failure members whose member was deleted: each adds one replica. */
  public static int replicasAdded(Map<String, MasterFailureMember> failures) {
    return failures == null ? 0
        : (int) failures.values().stream().filter(f -> Boolean.TRUE.equals(f.getMemberDeleted())).count();
  }

  private static boolean desired(String setName, int replicas, String pod) {
    String prefix = setName + "-";
    if (!pod.startsWith(prefix)) {
      return false;
    }
    try {
      int ordinal = Integer.parseInt(pod.substring(prefix.length()));
      return ordinal >= 0 && ordinal < replicas;
    } catch (NumberFormatException e) {
      return false;
    }
  }
}
