package io.tidb.operator.pd;

import java.util.List;
import java.util.Optional;

/**
 * {@code GET /pd/api/v1/members}.
 *
 * @param clusterId unsigned 64-bit cluster id
 * @param leader the PD leader, or null when none is reported
 */
public record PdMembers(long clusterId, List<PdMemberInfo> members, PdMemberInfo leader) {

  public PdMembers {
    members = List.copyOf(members);
  }

  public Optional<PdMemberInfo> member(String name) {
    return members.stream().filter(m -> m.name().equals(name)).findFirst();
  }

  public Optional<PdMemberInfo> member(long memberId) {
    return members.stream().filter(m -> m.memberId() == memberId).findFirst();
  }
}
