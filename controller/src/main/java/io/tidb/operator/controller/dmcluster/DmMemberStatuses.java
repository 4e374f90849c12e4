package io.tidb.operator.controller.dmcluster;

import io.tidb.operator.api.v1alpha1.dm.MasterMember;
import io.tidb.operator.api.v1alpha1.dm.WorkerMember;
import io.tidb.operator.dmapi.DmMasterInfo;
import io.tidb.operator.dmapi.DmWorkerInfo;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The members in status from what the DM API reports: each member's {@code lastTransitionTime}
 * is kept until its health (masters) or stage (workers) changes. Pure.
 */
public final class DmMemberStatuses {

  private DmMemberStatuses() {}

  public static Map<String, MasterMember> masters(
      List<DmMasterInfo> reported, Map<String, MasterMember> previous, Instant now) {
    Map<String, MasterMember> out = new TreeMap<>();
    for (DmMasterInfo m : reported) {
      MasterMember member = new MasterMember();
      member.setName(m.name());
      member.setId(m.memberId());
      member.setClientURL(m.clientUrls().isEmpty() ? "" : m.clientUrls().get(0));
      member.setHealth(m.alive());
      MasterMember before = previous == null ? null : previous.get(m.name());
      member.setLastTransitionTime(before != null && Objects.equals(before.getHealth(), m.alive())
          && before.getLastTransitionTime() != null ? before.getLastTransitionTime() : now.toString());
      out.put(m.name(), member);
    }
    return out;
  }

  public static Map<String, WorkerMember> workers(
      List<DmWorkerInfo> reported, Map<String, WorkerMember> previous, Instant now) {
    Map<String, WorkerMember> out = new TreeMap<>();
    for (DmWorkerInfo w : reported) {
      WorkerMember member = new WorkerMember();
      member.setName(w.name());
      member.setAddr(w.addr());
      member.setStage(w.stage());
      WorkerMember before = previous == null ? null : previous.get(w.name());
      member.setLastTransitionTime(before != null && Objects.equals(before.getStage(), w.stage())
          && before.getLastTransitionTime() != null ? before.getLastTransitionTime() : now.toString());
      out.put(w.name(), member);
    }
    return out;
  }
}
