package io.tidb.operator.controller.tidbcluster.pd;

import io.tidb.operator.api.v1alpha1.cluster.PdMember;
import io.tidb.operator.controller.tidbcluster.member.MemberDecision;
import io.tidb.operator.controller.tidbcluster.member.ObservedPod;
import io.tidb.operator.controller.tidbcluster.member.Rollout;
import java.time.Instant;
import java.util.Comparator;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * PD's rolling-upgrade rule, one pod per pass from the highest ordinal down:
 *
 * <ul>
 *   <li>every pod already upgraded must be Ready, Ready for {@code
 *       tidb.pingcap.com/pd-min-ready-seconds}, reported healthy by PD and have loaded its regions
 *       ({@code GET /pd/api/v2/ready}) before the next pod is touched;
 *   <li>before its turn, a pod that holds PD leadership hands it over: to the highest healthy
 *       upgraded member, else to the lowest healthy one; only when none of this cluster's own
 *       members can take it, to a healthy member of another TidbCluster in the same PD cluster
 *       ({@code status.pd.peerMembers}), as upstream's upgrader does;
 *   <li>with {@code tidb.pingcap.com/pd-check-quorum-before-upgrade: "true"}, a pod is only
 *       restarted when the other healthy members still form a majority;
 *   <li>then the partition drops to that pod's ordinal and the StatefulSet controller replaces it.
 * </ul>
 */
public final class PdUpgrade {

  private PdUpgrade() {}

  /**
   * @param members this cluster's PD members by name (pod name)
   * @param peerMembers the PD members of other TidbClusters in the same PD cluster
   *     ({@code status.pd.peerMembers}), counted in the quorum check
   * @param regionsLoaded the members that answered {@code /pd/api/v2/ready} with ready
   * @param checkQuorum {@code tidb.pingcap.com/pd-check-quorum-before-upgrade} is true
   */
  public record Facts(
      Rollout rollout,
      Map<String, PdMember> members,
      Map<String, PdMember> peerMembers,
      Optional<String> leader,
      Set<String> regionsLoaded,
      long minReadySeconds,
      boolean checkQuorum,
      Instant now) {}

  /** The upgraded pods the rule will ask {@code /pd/api/v2/ready} about: Ready and healthy. */
  public static Set<String> readinessCandidates(Rollout rollout, Map<String, PdMember> members) {
    java.util.Set<String> names = new java.util.TreeSet<>();
    for (ObservedPod p : rollout.pods().values()) {
      if (p.ordinal() < rollout.replicas()
          && rollout.isUpdated(p)
          && p.ready()
          && PdScaleIn.healthy(members.get(p.name()))) {
        names.add(p.name());
      }
    }
    return names;
  }

  public static MemberDecision decide(Facts f) {
    Rollout r = f.rollout();
    for (int i = r.replicas() - 1; i >= 0; i--) {
      Optional<ObservedPod> pod = r.pod(i);
      if (pod.isEmpty() || pod.get().terminating()) {
        return MemberDecision.waitFor(
            "waiting for pod " + r.podName(i) + " to be recreated (" + progress(r) + ")");
      }
      ObservedPod p = pod.get();
      if (r.isUpdated(p)) {
        Optional<String> notDone = notDone(f, p);
        if (notDone.isPresent()) {
          return MemberDecision.waitFor(notDone.get() + " (" + progress(r) + ")");
        }
        continue;
      }
      if (i >= r.partition()) {
        return MemberDecision.waitFor(
            "waiting for the StatefulSet controller to replace pod " + p.name() + " ("
                + progress(r) + ")");
      }
      if (f.leader().filter(p.name()::equals).isPresent()) {
        Optional<String> own = r.replicas() > 1 ? transferTarget(f, p.name()) : Optional.empty();
        if (own.isPresent()) {
          return new MemberDecision.Act(
              new PdActions.TransferLeader(p.name(), own.get()),
              "moving PD leadership from " + p.name() + " to " + own.get() + " before "
                  + p.name() + " is upgraded (" + progress(r) + ")");
        }
        Optional<String> peer = PdScaleIn.peerTarget(f.peerMembers(), p.name());
        if (peer.isPresent()) {
          return new MemberDecision.Act(
              new PdActions.TransferLeader(p.name(), peer.get()),
              "moving PD leadership from " + p.name() + " to " + peer.get() + " of another"
                  + " TidbCluster (no member of this one can take it) before " + p.name()
                  + " is upgraded (" + progress(r) + ")");
        }
        if (r.replicas() > 1) {
          return MemberDecision.waitFor(
              p.name() + " is the PD leader and no other member is healthy to take over;"
                  + " waiting before upgrading it (" + progress(r) + ")");
        }
      }
      if (f.checkQuorum()) {
        long healthyOthers =
            f.members().entrySet().stream()
                .filter(e -> !e.getKey().equals(p.name()) && PdScaleIn.healthy(e.getValue()))
                .count()
            + f.peerMembers().values().stream().filter(PdScaleIn::healthy).count();
        int total = f.members().size() + f.peerMembers().size();
        int needed = total / 2 + 1;
        if (healthyOthers < needed) {
          return MemberDecision.waitFor(
              "restarting " + p.name() + " would leave " + healthyOthers + " healthy of "
                  + total + " PD members" + (f.peerMembers().isEmpty() ? ""
                      : " (" + f.peerMembers().size() + " of other TidbClusters)")
                  + ", below a majority (" + needed
                  + "); waiting (tidb.pingcap.com/pd-check-quorum-before-upgrade)");
        }
      }
      return new MemberDecision.Roll(i, "upgrading " + p.name() + " (" + progress(r) + ")");
    }
    return MemberDecision.IDLE;
  }

  private static Optional<String> notDone(Facts f, ObservedPod p) {
    if (!p.ready()) {
      return Optional.of("waiting for upgraded pod " + p.name() + " to be Ready");
    }
    if (!p.readyFor(f.minReadySeconds(), f.now())) {
      return Optional.of(
          "waiting for upgraded pod " + p.name() + " to stay Ready for " + f.minReadySeconds()
              + " s (tidb.pingcap.com/pd-min-ready-seconds)");
    }
    if (!PdScaleIn.healthy(f.members().get(p.name()))) {
      return Optional.of("waiting for PD to report upgraded member " + p.name() + " healthy");
    }
    if (!f.regionsLoaded().contains(p.name())) {
      return Optional.of(
          "waiting for upgraded member " + p.name() + " to load its regions (/pd/api/v2/ready)");
    }
    return Optional.empty();
  }

  /** The highest healthy upgraded member, else the lowest healthy one; never {@code from}. */
  static Optional<String> transferTarget(Facts f, String from) {
    Rollout r = f.rollout();
    Optional<String> upgraded =
        r.pods().values().stream()
            .filter(p -> !p.name().equals(from) && r.isUpdated(p))
            .filter(p -> PdScaleIn.healthy(f.members().get(p.name())))
            .max(Comparator.comparingInt(ObservedPod::ordinal))
            .map(ObservedPod::name);
    if (upgraded.isPresent()) {
      return upgraded;
    }
    return r.pods().values().stream()
        .filter(p -> !p.name().equals(from))
        .filter(p -> PdScaleIn.healthy(f.members().get(p.name())))
        .min(Comparator.comparingInt(ObservedPod::ordinal))
        .map(ObservedPod::name);
  }

  static String progress(Rollout r) {
    return r.updatedCount() + " of " + r.replicas() + " done";
  }
}
