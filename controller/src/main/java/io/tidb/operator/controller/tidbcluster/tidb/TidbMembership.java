package io.tidb.operator.controller.tidbcluster.tidb;

import io.tidb.operator.api.v1alpha1.cluster.TidbMember;
import io.tidb.operator.api.v1alpha1.cluster.TidbStatus;
import io.tidb.operator.controller.runtime.Conditions;
import io.tidb.operator.controller.tidbcluster.member.DesiredMembers;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Turns the TiDB servers' {@code /status} answers into {@code status.tidb.members}. */
public final class TidbMembership {

  /**
   * One TiDB server as probed.
   *
   * @param name its pod name
   * @param healthy its status port answered 200
   * @param node the node the pod runs on, if scheduled
   */
  public record ServerHealth(String name, boolean healthy, String node) {}

  private TidbMembership() {}

  /** Records the members; {@code lastTransitionTime} moves only when health flips. */
  public static void record(TidbStatus status, List<ServerHealth> servers, Instant now) {
    Map<String, TidbMember> previous = status.getMembers() == null ? Map.of() : status.getMembers();
    Map<String, TidbMember> members = new TreeMap<>();
    for (ServerHealth s : servers) {
      TidbMember m = new TidbMember();
      m.setName(s.name());
      m.setHealth(s.healthy());
      m.setNode(s.node());
      TidbMember before = previous.get(s.name());
      m.setLastTransitionTime(
          before != null
                  && before.getHealth() != null
                  && before.getHealth() == s.healthy()
                  && before.getLastTransitionTime() != null
              ? before.getLastTransitionTime()
              : Conditions.timestamp(now));
      members.put(s.name(), m);
    }
    status.setMembers(members.isEmpty() ? null : members);
  }

  /** Exactly the desired servers, every one healthy (absent status counts as no servers). */
  public static boolean ready(TidbStatus status, int desired) {
    return DesiredMembers.exactly(
        status == null ? null : status.getMembers(),
        desired,
        m -> Boolean.TRUE.equals(m.getHealth()));
  }
}
