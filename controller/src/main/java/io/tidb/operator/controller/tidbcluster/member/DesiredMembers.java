package io.tidb.operator.controller.tidbcluster.member;

import java.util.Map;
import java.util.function.Predicate;

/** The shape every member component's readiness shares: the desired count, each one well. */
public final class DesiredMembers {

  private DesiredMembers() {}

  /**
   * Whether {@code members} (absent counts as none) has exactly {@code desired} entries and every
   * one passes {@code well}.
   */
  public static <V> boolean exactly(Map<String, V> members, int desired, Predicate<V> well) {
    return members == null
        ? desired == 0
        : members.size() == desired && members.values().stream().allMatch(well);
  }
}
