package io.tidb.operator.controller.dmcluster;

import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.tidb.operator.controller.tidbcluster.member.MemberDecision;
import io.tidb.operator.controller.tidbcluster.member.Rollout;
import io.tidb.operator.controller.tidbcluster.member.VolumeActions;
import io.tidb.operator.controller.tidbcluster.member.VolumeCare;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The data claims of dm-master and dm-worker, upstream's rules ({@code dm_*_scaler.go}, {@code
 * pvc_cleaner.go}, {@code reclaim_policy_manager.go}) on the TidbCluster's volume decisions
 * ({@link VolumeActions}, {@link VolumeCare}). Pure.
 *
 * <ul>
 *   <li>A scale-in marks the claims of the removed ordinals {@code tidb.pingcap.com/pvc-defer-deleting}
 *       (never deleting them then).
 *   <li>Before a scale-out a marked claim of a new ordinal is deleted first and the scale-out
 *       waits until it is gone, so the new member starts empty.
 *   <li>With {@code enablePVReclaim} a marked claim whose pod is gone is deleted, its volume's
 *       reclaim policy set to Delete first.
 *   <li>{@code pvReclaimPolicy} is set on the volumes bound to the other claims.
 * </ul>
 *
 * @param replicas the StatefulSet's replicas to apply (held while a claim of a new ordinal goes)
 * @param mark claims to mark deferred
 * @param delete a marked claim of a new ordinal to delete first
 * @param reclaim a marked claim to delete with its volume ({@code enablePVReclaim})
 * @param message what is done or waited for, for Events and status
 */
public record DmVolumes(int replicas, List<String> mark, Optional<VolumeActions.DeleteClaim> delete,
    Optional<VolumeActions.ReclaimClaim> reclaim, Optional<String> message) {

  /**
   * @param claimTemplate {@code dm-master} or {@code dm-worker}
   * @param claims the component's claims
   * @param rollout the StatefulSet as observed, empty before it exists
   * @param planned the replicas the scale rules decided
   */
  public static DmVolumes decide(String claimTemplate, String setName, List<PersistentVolumeClaim> claims,
      Optional<Rollout> rollout, int planned, boolean enablePvReclaim, String displayName) {
    if (rollout.isEmpty()) {
      return new DmVolumes(planned, List.of(), Optional.empty(), Optional.empty(), Optional.empty());
    }
    int current = rollout.get().replicas();
    Map<String, PersistentVolumeClaim> byName = new TreeMap<>();
    claims.forEach(c -> byName.put(c.getMetadata().getName(), c));
    if (planned > current) {
      Map<String, PersistentVolumeClaim> fresh = new TreeMap<>();
      for (int o = current; o < planned; o++) {
        PersistentVolumeClaim c = byName.get(claimName(claimTemplate, setName, o));
        if (c != null) {
          fresh.put(c.getMetadata().getName(), c);
        }
      }
      Optional<MemberDecision> before = VolumeActions.beforeScaleOut(fresh, displayName);
      if (before.isPresent()) {
        Optional<VolumeActions.DeleteClaim> delete = before.get() instanceof MemberDecision.Act act
            && act.action() instanceof VolumeActions.DeleteClaim d ? Optional.of(d) : Optional.empty();
        return new DmVolumes(current, List.of(), delete, Optional.empty(), Optional.of(before.get().message()));
      }
      return new DmVolumes(planned, List.of(), Optional.empty(), Optional.empty(), Optional.empty());
    }
    List<String> mark = new ArrayList<>();
    for (int o = planned; o < current; o++) {
      PersistentVolumeClaim c = byName.get(claimName(claimTemplate, setName, o));
      if (c != null && !VolumeActions.deferred(c)) {
        mark.add(c.getMetadata().getName());
      }
    }
    Optional<VolumeActions.ReclaimClaim> reclaim = Optional.empty();
    Optional<String> message = Optional.empty();
    if (enablePvReclaim) {
      Optional<MemberDecision> r = VolumeActions.reclaim(claims, rollout.get());
      if (r.isPresent() && r.get() instanceof MemberDecision.Act act
          && act.action() instanceof VolumeActions.ReclaimClaim rc) {
        reclaim = Optional.of(rc);
        message = Optional.of(act.message());
      }
    }
    return new DmVolumes(planned, mark, Optional.empty(), reclaim, message);
  }

  /** {@code <claim template>-<statefulset>-<ordinal>}, the StatefulSet controller's claim name. */
  public static String claimName(String claimTemplate, String setName, int ordinal) {
    return claimTemplate + "-" + setName + "-" + ordinal;
  }

  /**
   * The volume whose reclaim policy must become {@code policy}: the one bound to {@code pvc},
   * unless {@code enablePVReclaim} deletes it with a marked claim, or it already has it.
   */
  public static Optional<String> policyToSet(PersistentVolumeClaim pvc, Optional<PersistentVolume> pv,
      String policy, boolean enablePvReclaim) {
    if (policy == null || policy.isEmpty() || pv.isEmpty() || pv.get().getSpec() == null
        || policy.equals(pv.get().getSpec().getPersistentVolumeReclaimPolicy())) {
      return Optional.empty();
    }
    return VolumeCare.volumeToCareFor(pvc, enablePvReclaim);
  }
}
