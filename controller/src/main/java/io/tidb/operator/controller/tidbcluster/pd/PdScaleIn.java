package io.tidb.operator.controller.tidbcluster.pd;

import io.tidb.operator.api.v1alpha1.cluster.PdMember;
import io.tidb.operator.controller.tidbcluster.member.MemberDecision;
import io.tidb.operator.controller.tidbcluster.member.MemberStep;
import java.util.Comparator;
import java.util.Map;
import java.util.Optional;

/**
 * PD's scale-in rule, one member per pass, highest ordinal first:
 *
 * <ol>
 *   <li>PD is never scaled to 0 while another component of the cluster exists (Warning {@code
 *       FailedScaleIn});
 *   <li>when the member to remove is the leader, leadership moves first: to the member one ordinal
 *       below if it is healthy, else to the healthy member of the lowest ordinal; only when none of
 *       this cluster's own members can take it (its last member, or none healthy), to a healthy PD
 *       member of another TidbCluster in the same PD cluster ({@code status.pd.peerMembers}, the
 *       first by name), as upstream's scaler does;
 *   <li>the member is removed from PD ({@code DELETE members/name/<name>}; repeating it after a
 *       crash is harmless, the client checks first);
 *   <li>once PD no longer lists it, the StatefulSet shrinks by one; the pod's volumes are kept,
 *       marked {@code tidb.pingcap.com/pvc-defer-deleting}.
 * </ol>
 */
public final class PdScaleIn {

  private PdScaleIn() {}

  /**
   * @param cluster the TidbCluster's name
   * @param current the StatefulSet's replicas
   * @param wanted {@code spec.pd.replicas}, below {@code current}
   * @param otherComponents the components besides PD the cluster has, for the refusal message;
   *     empty when PD is alone
   * @param members this cluster's PD members by name, as PD reported them this reconcile
   * @param peerMembers the PD members of other TidbClusters in the same PD cluster ({@code
   *     status.pd.peerMembers}), leadership's last resort
   * @param leader the PD leader's name, if there is one
   */
  public record Facts(
      String cluster,
      int current,
      int wanted,
      Optional<String> otherComponents,
      Map<String, PdMember> members,
      Map<String, PdMember> peerMembers,
      Optional<String> leader) {}

  public static MemberDecision decide(Facts f) {
    if (f.wanted() == 0 && f.otherComponents().isPresent()) {
      return new MemberDecision.Blocked(
          MemberStep.FAILED_SCALE_IN,
          "spec.pd.replicas is 0 but the cluster still has " + f.otherComponents().get()
              + "; PD can only be scaled to 0 when no other component uses it");
    }
    int ordinal = f.current() - 1;
    String member = f.cluster() + "-pd-" + ordinal;
    if (!f.members().containsKey(member)) {
      return new MemberDecision.Resize(
          ordinal,
          member + " has left the PD cluster; removing its pod (its volumes are kept, marked"
              + " for deferred deletion)");
    }
    if (f.leader().filter(member::equals).isPresent()) {
      Optional<String> own = f.current() > 1 ? transferTarget(f, member, ordinal) : Optional.empty();
      if (own.isPresent()) {
        return new MemberDecision.Act(
            new PdActions.TransferLeader(member, own.get()),
            "moving PD leadership from " + member + " to " + own.get() + " before " + member
                + " is removed (scale-in to " + f.wanted() + ")");
      }
      Optional<String> peer = peerTarget(f.peerMembers(), member);
      if (peer.isPresent()) {
        return new MemberDecision.Act(
            new PdActions.TransferLeader(member, peer.get()),
            "moving PD leadership from " + member + " to " + peer.get() + " of another"
                + " TidbCluster (no member of this one can take it) before " + member
                + " is removed (scale-in to " + f.wanted() + ")");
      }
      if (f.current() > 1) {
        return MemberDecision.waitFor(
            member + " is the PD leader and no other member is healthy to take over; waiting"
                + " before removing it");
      }
      // the PD cluster's last member: nobody to hand leadership to, it is removed as leader
    }
    return new MemberDecision.Act(
        new PdActions.DeleteMember(member),
        "removing member " + member + " from the PD cluster (scale-in from " + f.current()
            + " to " + f.wanted() + ")");
  }

  private static Optional<String> transferTarget(Facts f, String member, int ordinal) {
    String below = f.cluster() + "-pd-" + (ordinal - 1);
    if (healthy(f.members().get(below))) {
      return Optional.of(below);
    }
    return f.members().entrySet().stream()
        .filter(e -> !e.getKey().equals(member) && healthy(e.getValue()))
        .map(Map.Entry::getKey)
        .min(
            Comparator.comparingInt(PdScaleIn::ordinalOf)
                .thenComparing(Comparator.naturalOrder()));
  }

  /**
   * A healthy PD member of another TidbCluster, never {@code from}: the first by name (upstream
   * takes any; the order makes the choice repeatable).
   */
  static Optional<String> peerTarget(Map<String, PdMember> peers, String from) {
    return peers.entrySet().stream()
        .filter(e -> !e.getKey().equals(from) && healthy(e.getValue()))
        .map(Map.Entry::getKey)
        .min(Comparator.naturalOrder());
  }

  /** The ordinal of member {@code <cluster>-pd-<ordinal>}; a name without one sorts last. */
  private static int ordinalOf(String member) {
    try {
      return Integer.parseInt(member.substring(member.lastIndexOf('-') + 1));
    } catch (NumberFormatException e) {
      return Integer.MAX_VALUE;
    }
  }

  static boolean healthy(PdMember m) {
    return m != null && Boolean.TRUE.equals(m.getHealth());
  }
}
