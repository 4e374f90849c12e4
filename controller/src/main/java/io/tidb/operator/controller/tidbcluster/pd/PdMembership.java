package io.tidb.operator.controller.tidbcluster.pd;

import io.tidb.operator.api.v1alpha1.cluster.PdMember;
import io.tidb.operator.api.v1alpha1.cluster.PdStatus;
import io.tidb.operator.controller.runtime.Conditions;
import io.tidb.operator.controller.tidbcluster.member.DesiredMembers;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterApi;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Turns PD's {@code GET health} answer into {@code status.pd.members} (this cluster's members),
 * {@code peerMembers} (members of other clusters in the same PD cluster) and {@code leader}.
 */
public final class PdMembership {

  private PdMembership() {}

  /**
   * Records the members in {@code status}. A member's {@code lastTransitionTime} moves to {@code
   * now} only when its health flips (or it is new); otherwise the previous time is kept.
   *
   * @param leaderName the PD leader's name, if PD has one
   */
  public static void record(
      PdStatus status,
      String cluster,
      String namespace,
      List<ClusterApi.MemberHealth> health,
      Optional<String> leaderName,
      Instant now) {
    Map<String, PdMember> previous = merged(status.getMembers(), status.getPeerMembers());
    Map<String, PdMember> members = new TreeMap<>();
    Map<String, PdMember> peers = new TreeMap<>();
    Pattern own = ownClientUrl(cluster, namespace);
    for (ClusterApi.MemberHealth h : health) {
      if (h.name() == null || h.name().isEmpty()) {
        continue; // added to etcd but never started: no name, no URL yet
      }
      String clientUrl = h.clientUrls().isEmpty() ? "" : h.clientUrls().get(0);
      PdMember m = new PdMember();
      m.setName(h.name());
      m.setId(h.memberId());
      m.setClientURL(clientUrl);
      m.setHealth(h.health());
      PdMember before = previous.get(h.name());
      m.setLastTransitionTime(
          before != null
                  && before.getHealth() != null
                  && before.getHealth() == h.health()
                  && before.getLastTransitionTime() != null
              ? before.getLastTransitionTime()
              : Conditions.timestamp(now));
      (own.matcher(clientUrl).find() ? members : peers).put(h.name(), m);
    }
    status.setMembers(members.isEmpty() ? null : members);
    status.setPeerMembers(peers.isEmpty() ? null : peers);
    status.setLeader(
        leaderName.map(name -> members.containsKey(name) ? members.get(name) : peers.get(name))
            .orElse(null));
  }

  /**
   * PD could not be read: the members and leader stay as last seen but no longer claim to be
   * healthy (health false; its transition time moves to {@code now} where it flips), and the
   * status is not synced.
   */
  public static void markStale(PdStatus status, Instant now) {
    status.setSynced(false);
    for (Map<String, PdMember> map : java.util.Arrays.asList(status.getMembers(), status.getPeerMembers())) {
      if (map != null) {
        map.values().forEach(m -> stale(m, now));
      }
    }
    if (status.getLeader() != null) {
      stale(status.getLeader(), now);
    }
  }

  private static void stale(PdMember m, Instant now) {
    if (!Boolean.FALSE.equals(m.getHealth())) {
      m.setHealth(false);
      m.setLastTransitionTime(Conditions.timestamp(now));
    }
  }

  /** PD is synced, has exactly the desired members, and every one is healthy. */
  public static boolean ready(PdStatus status, int desired) {
    return status != null
        && Boolean.TRUE.equals(status.getSynced())
        && DesiredMembers.exactly(
            status.getMembers(), desired, m -> Boolean.TRUE.equals(m.getHealth()));
  }

  /**
   * Healthy members are a majority of the whole PD cluster: this cluster's desired PD replicas
   * plus the members of other TidbClusters in the same PD cluster ({@code peerMembers}), as
   * upstream counts PD's quorum. Without peers, a majority of this cluster's own members.
   */
  public static boolean quorum(PdStatus status, int desiredReplicas) {
    if (status == null || !Boolean.TRUE.equals(status.getSynced())) {
      return false;
    }
    int peers = status.getPeerMembers() == null ? 0 : status.getPeerMembers().size();
    int needed = (desiredReplicas + peers) / 2 + 1;
    Map<String, PdMember> all = merged(status.getMembers(), status.getPeerMembers());
    long healthy = all.values().stream().filter(m -> Boolean.TRUE.equals(m.getHealth())).count();
    return healthy >= needed;
  }

  /** Matches client URLs of this cluster's PD pods: {@code <tc>-pd-N.<tc>-pd-peer.<ns>.svc}. */
  static Pattern ownClientUrl(String cluster, String namespace) {
    String c = Pattern.quote(cluster);
    return Pattern.compile(
        "^[a-z]+://" + c + "-pd-\\d+\\." + c + "-pd-peer\\." + Pattern.quote(namespace)
            + "\\.svc([.:/]|$)");
  }

  private static Map<String, PdMember> merged(Map<String, PdMember> a, Map<String, PdMember> b) {
    Map<String, PdMember> all = new TreeMap<>();
    if (b != null) {
      all.putAll(b);
    }
    if (a != null) {
      all.putAll(a);
    }
    return all;
  }
}
