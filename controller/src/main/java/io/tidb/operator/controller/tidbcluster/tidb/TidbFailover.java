package io.tidb.operator.controller.tidbcluster.tidb;

import io.tidb.operator.api.v1alpha1.cluster.TidbFailureMember;
import io.tidb.operator.api.v1alpha1.cluster.TidbMember;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * TiDB failover, upstream's rules ({@code tidb_failover.go} and the TiDB member manager's {@code
 * shouldRecover}): a server unhealthy for longer than the failover period, whose pod is scheduled,
 * gets one replacement per pass (a record in {@code status.tidb.failureMembers}; the StatefulSet
 * gets {@code spec.tidb.replicas} plus one replica per record), up to {@code maxFailoverCount}. A
 * recorded server that is healthy again loses its record; when every pod the spec asks for is
 * Ready and healthy, all records go and the replacements are scaled in.
 */
public final class TidbFailover {

  private TidbFailover() {}

  /**
   * What one pass sees.
   *
   * @param members {@code status.tidb.members} as probed in this reconcile, by pod name
   * @param records {@code status.tidb.failureMembers}, by pod name
   * @param maxFailoverCount {@code spec.tidb.maxFailoverCount} (null or 0: no new records)
   * @param scheduled pods whose {@code PodScheduled} condition is {@code True}
   * @param ready pods that are Ready
   * @param specPods the pods the spec asks for (ordinals below {@code spec.tidb.replicas})
   * @param quiet the component is neither scaling nor being upgraded: a new record may be made
   * @param period {@code --tidb-failover-period}
   */
  public record Facts(
      Map<String, TidbMember> members,
      Map<String, TidbFailureMember> records,
      Integer maxFailoverCount,
      Set<String> scheduled,
      Set<String> ready,
      List<String> specPods,
      boolean quiet,
      Duration period,
      Instant now) {}

  /**
   * The outcome.
   *
   * @param records the new {@code failureMembers} (null when there are none)
   * @param unhealthy the pod recorded in this pass, if any (for the Warning Event)
   * @param recovered every record was cleared because every pod the spec asks for is healthy
   */
  public record Result(
      Map<String, TidbFailureMember> records, Optional<String> unhealthy, boolean recovered) {}

  public static Result decide(Facts f) {
    Map<String, TidbFailureMember> records =
        f.records() == null ? new TreeMap<>() : new TreeMap<>(f.records());
    Map<String, TidbMember> members = f.members() == null ? Map.of() : f.members();
    if (!records.isEmpty() && allHealthy(f, members)) {
      return new Result(null, Optional.empty(), true);
    }
    for (Map.Entry<String, TidbMember> e : members.entrySet()) {
      if (records.containsKey(e.getKey()) && healthy(e.getValue())) {
        records.remove(e.getKey());
      }
    }
    Optional<String> recorded = Optional.empty();
    int max = f.maxFailoverCount() == null ? 0 : f.maxFailoverCount();
    if (f.quiet() && max > 0) {
      for (Map.Entry<String, TidbMember> e : new TreeMap<>(members).entrySet()) {
        String pod = e.getKey();
        TidbMember m = e.getValue();
        if (records.containsKey(pod) || healthy(m) || !overdue(m.getLastTransitionTime(), f)) {
          continue;
        }
        if (records.size() >= max) {
          break;
        }
        if (!f.scheduled().contains(pod)) {
          // unhealthy because it is not scheduled yet: a replacement would not help
          continue;
        }
        TidbFailureMember record = new TidbFailureMember();
        record.setPodName(pod);
        record.setCreatedAt(f.now().toString());
        records.put(pod, record);
        recorded = Optional.of(pod);
        break;
      }
    }
    return new Result(records.isEmpty() ? null : records, recorded, false);
  }

  /** Every pod the spec asks for (ordinals below spec replicas) is Ready and healthy. */
  private static boolean allHealthy(Facts f, Map<String, TidbMember> members) {
    for (String pod : f.specPods()) {
      if (!f.ready().contains(pod) || !healthy(members.get(pod))) {
        return false;
      }
    }
    return true;
  }

  private static boolean healthy(TidbMember m) {
    return m != null && Boolean.TRUE.equals(m.getHealth());
  }

  private static boolean overdue(String since, Facts f) {
    if (since == null || since.isEmpty()) {
      return false;
    }
    return f.now().isAfter(Instant.parse(since).plus(f.period()));
  }
}
