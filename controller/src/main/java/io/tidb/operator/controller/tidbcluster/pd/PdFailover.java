package io.tidb.operator.controller.tidbcluster.pd;

import io.tidb.operator.api.v1alpha1.cluster.PdFailureMember;
import io.tidb.operator.api.v1alpha1.cluster.PdMember;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * PD failover, upstream's rules ({@code pd_failover.go} and the PD member manager): only while
 * PD's status is synced and PD has quorum, one member at a time. A member of a pod the spec asks
 * for that is unhealthy for longer than the failover period is recorded in {@code
 * status.pd.failureMembers} (Warning {@code PDMemberUnhealthy}); on a later pass, while it is
 * still unhealthy, it is deleted from PD ({@code DELETE members/id/<id>}) and its pod and volume
 * claims are deleted, and the record is marked {@code memberDeleted}. The StatefulSet has {@code
 * spec.pd.replicas} plus one replica per deleted record, at most {@code maxFailoverCount}. When
 * every pod the spec asks for is Ready and a healthy member, every record is cleared, and the
 * extra replica is then removed by an ordinary PD scale-in.
 */
public final class PdFailover {

  private PdFailover() {}

  /**
   * What one pass sees.
   *
   * @param members {@code status.pd.members} (this cluster's own), by name (= pod name)
   * @param peerMembers {@code status.pd.peerMembers}
   * @param records {@code status.pd.failureMembers}, by member name
   * @param specReplicas {@code spec.pd.replicas}
   * @param maxFailoverCount {@code spec.pd.maxFailoverCount} (null or 0: no failover)
   * @param ready the PD pods that are Ready
   * @param synced PD was read in this reconcile
   * @param quiet PD is neither scaling nor being upgraded
   */
  public record Facts(
      String cluster,
      Map<String, PdMember> members,
      Map<String, PdMember> peerMembers,
      Map<String, PdFailureMember> records,
      int specReplicas,
      Integer maxFailoverCount,
      Set<String> ready,
      boolean synced,
      boolean quiet,
      Duration period,
      Instant now) {}

  /** What one pass does. */
  public sealed interface Decision {}

  /** Nothing; {@code why} says why no failover runs (for the log), or is empty. */
  public record Nothing(String why) implements Decision {}

  /** Record {@code pod}'s member (id {@code memberId}) as failed. */
  public record Mark(String pod, String memberId) implements Decision {}

  /**
   * Delete the recorded member (record key and pod name {@code pod}) from PD, then its pod and
   * claims, and mark it deleted.
   */
  public record Delete(String pod, String memberId) implements Decision {}

  /** Every pod the spec asks for is healthy again: clear every record. */
  public record Recover() implements Decision {}

  public static Decision decide(Facts f) {
    Map<String, PdFailureMember> records = f.records() == null ? Map.of() : f.records();
    Map<String, PdMember> members = f.members() == null ? Map.of() : f.members();
    if (!records.isEmpty() && allHealthy(f, members)) {
      return new Recover();
    }
    int max = f.maxFailoverCount() == null ? 0 : f.maxFailoverCount();
    if (max <= 0) {
      return new Nothing("");
    }
    long deleted = records.values().stream().filter(PdFailover::deleted).count();
    boolean failing = records.size() > deleted;
    boolean allReady =
        members.size() == f.specReplicas() + deleted
            && members.values().stream().allMatch(PdFailover::healthy);
    if (allReady && !failing) {
      return new Nothing("");
    }
    if (!f.synced()) {
      return new Nothing("PD's status is not synced");
    }
    if (!f.quiet()) {
      return new Nothing("PD is scaling or being upgraded");
    }
    int healthy = 0;
    int total = 0;
    for (PdMember member : members.values()) {
      total++;
      healthy += healthy(member) ? 1 : 0;
    }
    for (PdMember member : f.peerMembers() == null ? Map.<String, PdMember>of().values()
        : f.peerMembers().values()) {
      total++;
      healthy += healthy(member) ? 1 : 0;
    }
    if (healthy <= total / 2) {
      return new Nothing(
          "PD has no quorum (" + healthy + " of " + total + " members healthy)");
    }
    if (deleted >= max) {
      return new Nothing(
          "PD failover replicas (" + deleted + ") reached spec.pd.maxFailoverCount (" + max + ")");
    }
    if (!failing) {
      for (Map.Entry<String, PdMember> e : new TreeMap<>(members).entrySet()) {
        PdMember m = e.getValue();
        String pod = e.getKey();
        if (m.getLastTransitionTime() == null
            || !desired(f, pod)
            || healthy(m)
            || records.containsKey(pod)
            || !f.now().isAfter(Instant.parse(m.getLastTransitionTime()).plus(f.period()))) {
          continue;
        }
        return new Mark(pod, m.getId());
      }
      return new Nothing("");
    }
    for (Map.Entry<String, PdFailureMember> e : new TreeMap<>(records).entrySet()) {
      if (deleted(e.getValue())) {
        continue;
      }
      PdMember now = members.get(e.getKey());
      if (now != null && healthy(now)) {
        // healthy again (e.g. its pod restarted): not deleted; cleared when all are healthy
        continue;
      }
      return new Delete(e.getKey(), e.getValue().getMemberID());
    }
    return new Nothing("");
  }

  private static boolean allHealthy(Facts f, Map<String, PdMember> members) {
    for (int i = 0; i < f.specReplicas(); i++) {
      String pod = f.cluster() + "-pd-" + i;
      if (!f.ready().contains(pod) || !healthy(members.get(pod))) {
        return false;
      }
    }
    return true;
  }

  private static boolean desired(Facts f, String pod) {
    String prefix = f.cluster() + "-pd-";
    if (!pod.startsWith(prefix)) {
      return false;
    }
    try {
      int ordinal = Integer.parseInt(pod.substring(prefix.length()));
      return ordinal >= 0 && ordinal < f.specReplicas();
    } catch (NumberFormatException e) {
      return false;
    }
  }

  /**
   * Whether a pod created at {@code podCreated} is the failed one of a record made at {@code
   * recordCreated}, not a replacement made after it; true when either time is unknown.
   */
  public static boolean createdBefore(String podCreated, String recordCreated) {
    if (podCreated == null || recordCreated == null) {
      return true;
    }
    try {
      return !Instant.parse(podCreated).isAfter(Instant.parse(recordCreated));
    } catch (java.time.format.DateTimeParseException e) {
      return true;
    }
  }

  static boolean deleted(PdFailureMember r) {
    return Boolean.TRUE.equals(r.getMemberDeleted());
  }

  private static boolean healthy(PdMember m) {
    return m != null && Boolean.TRUE.equals(m.getHealth());
  }
}
