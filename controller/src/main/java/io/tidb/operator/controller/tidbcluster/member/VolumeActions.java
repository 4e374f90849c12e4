package io.tidb.operator.controller.tidbcluster.member;

import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.tidb.operator.controller.runtime.Conditions;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterContext;
import io.tidb.operator.controller.tidbcluster.pipeline.VolumeClaims;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The volumes of removed members: marked for deferred deletion when a member leaves (never deleted
 * then), deleted before a new member takes the same ordinal (so it starts empty instead of with a
 * removed member's data), and deleted once their pod is gone when the cluster sets {@code
 * enablePVReclaim}.
 */
public final class VolumeActions {

  /** Upstream's annotation on the claims of a removed member; the value is when it was marked. */
  public static final String DEFER_DELETING = "tidb.pingcap.com/pvc-defer-deleting";

  private VolumeActions() {}

  /** {@code <claim template>-<statefulset>-<ordinal>} for each of the StatefulSet's templates. */
  public static List<String> claimNames(StatefulSet sts, int ordinal) {
    List<String> names = new ArrayList<>();
    List<PersistentVolumeClaim> templates = sts.getSpec().getVolumeClaimTemplates();
    if (templates != null) {
      for (PersistentVolumeClaim t : templates) {
        names.add(t.getMetadata().getName() + "-" + sts.getMetadata().getName() + "-" + ordinal);
      }
    }
    return names;
  }

  public static boolean deferred(PersistentVolumeClaim pvc) {
    Map<String, String> a = pvc.getMetadata().getAnnotations();
    return a != null && a.containsKey(DEFER_DELETING);
  }

  /**
   * Before the StatefulSet grows to {@code target}: a claim of a new ordinal left by an earlier
   * scale-in is deleted first, and the scale-out waits until it is gone.
   *
   * @param claims the existing claims among {@link #claimNames} of the new ordinals, by name
   */
  public static Optional<MemberDecision> beforeScaleOut(
      Map<String, PersistentVolumeClaim> claims, String displayName) {
    for (PersistentVolumeClaim pvc : claims.values()) {
      if (!deferred(pvc)) {
        continue;
      }
      String name = pvc.getMetadata().getName();
      if (pvc.getMetadata().getDeletionTimestamp() != null) {
        return Optional.of(
            MemberDecision.waitFor(
                "waiting for volume claim " + name + " of a removed member to be deleted before"
                    + " scaling out"));
      }
      return Optional.of(
          new MemberDecision.Act(
              new DeleteClaim(name, pvc.getMetadata().getUid()),
              "deleting volume claim " + name + ", left by an earlier scale-in, so the new "
                  + displayName + " member starts with an empty volume"));
    }
    return Optional.empty();
  }

  /**
   * With {@code enablePVReclaim}: the first deferred claim whose ordinal is at or above {@code
   * replicas} and whose pod is gone is deleted.
   */
  public static Optional<MemberDecision> reclaim(
      List<PersistentVolumeClaim> claims, Rollout rollout) {
    for (PersistentVolumeClaim pvc : claims) {
      String name = pvc.getMetadata().getName();
      Optional<Integer> ordinal = ordinalOf(name);
      if (!deferred(pvc)
          || pvc.getMetadata().getDeletionTimestamp() != null
          || ordinal.isEmpty()
          || ordinal.get() < rollout.replicas()
          || rollout.pod(ordinal.get()).isPresent()) {
        continue;
      }
      String volume = pvc.getSpec() == null ? null : pvc.getSpec().getVolumeName();
      return Optional.of(
          new MemberDecision.Act(
              new ReclaimClaim(name, pvc.getMetadata().getUid(), volume),
              "deleting volume claim " + name + " of a removed member"
                  + (volume == null || volume.isEmpty()
                      ? ""
                      : " and its persistent volume " + volume + " (reclaim policy set to Delete"
                          + " first)")
                  + " (enablePVReclaim is true)"));
    }
    return Optional.empty();
  }

  static Optional<Integer> ordinalOf(String claimName) {
    int dash = claimName.lastIndexOf('-');
    try {
      return Optional.of(Integer.parseInt(claimName.substring(dash + 1)));
    } catch (NumberFormatException | IndexOutOfBoundsException e) {
      return Optional.empty();
    }
  }

  /** Marks the claims of a removed member; claims that do not exist are skipped. */
  public record MarkDeferred(List<String> claims) implements MemberAction {
    @Override
    public String reason() {
      return "VolumeDeferDeleting";
    }

    @Override
    public void perform(ClusterContext ctx) {
      for (String name : claims) {
        // Marked once, when the member leaves: read from the API server, not a cache that may
        // not have the claim yet.
        Optional<PersistentVolumeClaim> pvc = ctx.claims().current(name);
        if (pvc.isPresent() && !deferred(pvc.get())) {
          ctx.claims().annotate(name, DEFER_DELETING, Conditions.timestamp(ctx.now()));
        }
      }
    }
  }

  /** Deletes one claim, only if it is still the one decided on ({@code uid}). */
  public record DeleteClaim(String claim, String uid) implements MemberAction {
    @Override
    public String reason() {
      return "VolumeClaimDeleted";
    }

    @Override
    public void perform(ClusterContext ctx) {
      perform(ctx.claims());
    }

    /** As above on {@code claims} (a kind without a {@link ClusterContext}, e.g. DMCluster). */
    public void perform(VolumeClaims claims) {
      claims.delete(claim, uid);
    }
  }

  /**
   * {@code enablePVReclaim}: sets the bound PersistentVolume's reclaim policy to Delete (as
   * upstream does, so the volume goes with the claim whatever {@code pvReclaimPolicy} says), then
   * deletes the claim if it still has {@code uid}. Without a volume (or without permission to
   * read it) only the claim is deleted.
   */
  public record ReclaimClaim(String claim, String uid, String volume) implements MemberAction {
    @Override
    public String reason() {
      return "VolumeClaimDeleted";
    }

    @Override
    public void perform(ClusterContext ctx) {
      perform(ctx.claims());
    }

    /** As above on {@code claims} (a kind without a {@link ClusterContext}, e.g. DMCluster). */
    public void perform(VolumeClaims claims) {
      Optional<PersistentVolumeClaim> current = claims.current(claim);
      if (current.isEmpty() || !uid.equals(current.get().getMetadata().getUid())) {
        return;
      }
      if (volume != null && !volume.isEmpty()) {
        claims.volume(volume)
            .filter(pv -> pv.getSpec() != null
                && !"Delete".equals(pv.getSpec().getPersistentVolumeReclaimPolicy()))
            .ifPresent(pv -> claims.setReclaimPolicy(volume, "Delete"));
      }
      claims.delete(claim, uid);
    }
  }
}
