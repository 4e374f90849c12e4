package io.tidb.operator.controller.tidbcluster.pd;

import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.tidb.operator.api.v1alpha1.cluster.PdMember;
import io.tidb.operator.controller.tidbcluster.member.MemberDecision;
import io.tidb.operator.controller.tidbcluster.member.ObservedPod;
import io.tidb.operator.controller.tidbcluster.member.VolumeReplace;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * PD's volume replace of one annotated pod (upstream's {@code syncPDPodForReplaceVolume}): while
 * the pod's member is still in PD, and only when every PD member the StatefulSet asks for
 * (spare replicas included) is healthy, leadership is first moved to another member if the pod
 * holds it, then the member is deleted ({@code DELETE members/id/<id>}); once PD no longer lists
 * it, the pod's claims and then the pod are deleted ({@link VolumeReplace#dropVolumes}).
 */
public final class PdVolumeReplace {

  private PdVolumeReplace() {}

  /**
   * What one pass sees.
   *
   * @param pod the annotated pod
   * @param members {@code status.pd.members} as PD reported them in this reconcile, by name
   * @param leader the PD leader's name
   * @param allHealthy PD has exactly the desired members (spare replicas included), each healthy,
   *     and every pod is Ready
   * @param claims the pod's claims that exist, by name
   */
  public record Facts(
      ObservedPod pod,
      Map<String, PdMember> members,
      Optional<String> leader,
      boolean allHealthy,
      Map<String, PersistentVolumeClaim> claims) {}

  public static MemberDecision decide(Facts f) {
    String pod = f.pod().name();
    Map<String, PdMember> members = f.members() == null ? Map.of() : f.members();
    PdMember member = members.get(pod);
    if (member == null) {
      return VolumeReplace.dropVolumes(f.pod(), f.claims(), "PD");
    }
    if (!f.allHealthy()) {
      return MemberDecision.waitFor(
          "replacing the volumes of " + pod + ": waiting until every PD member (spare replicas"
              + " included) is healthy before its member leaves PD");
    }
    if (f.leader().filter(pod::equals).isPresent()) {
      Optional<String> to =
          new TreeMap<>(members).values().stream()
              .filter(m -> !pod.equals(m.getName()) && Boolean.TRUE.equals(m.getHealth()))
              .map(PdMember::getName)
              .findFirst();
      if (to.isEmpty()) {
        return new MemberDecision.Blocked(
            "FailedVolumeReplace",
            "cannot replace the volumes of " + pod + ": it is the PD leader and no other member"
                + " is healthy to take over leadership");
      }
      return new MemberDecision.Act(
          new PdActions.TransferLeader(pod, to.get()),
          "replacing the volumes of " + pod + ": moving PD leadership to " + to.get()
              + " first");
    }
    if (member.getId() == null || member.getId().isEmpty()) {
      return MemberDecision.waitFor(
          "replacing the volumes of " + pod + ": waiting for PD to report the member's id");
    }
    return new MemberDecision.Act(
        new PdActions.DeleteMemberById(pod, member.getId()),
        "replacing the volumes of " + pod + ": deleting its member (id " + member.getId()
            + ") from PD");
  }
}
