package io.tidb.operator.controller.tidbcluster.tikv;

import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.tidb.operator.controller.tidbcluster.member.MemberDecision;
import io.tidb.operator.controller.tidbcluster.member.ObservedPod;
import io.tidb.operator.controller.tidbcluster.member.VolumeReplace;
import java.util.Map;
import java.util.Optional;

/**
 * TiKV's volume replace of one annotated pod (upstream's {@code syncTiKVPodForReplaceVolume}):
 * an Up store is deleted ({@code DELETE /store/<id>}) only when every store the StatefulSet asks
 * for (spare replicas included) is Up and every pod Ready, and only when the Up stores left keep
 * at least PD's {@code max-replicas}; an Offline store is waited for until PD has moved its regions
 * away and made it Tombstone; then the pod's claims and then the pod are deleted ({@link
 * VolumeReplace#dropVolumes}). A pod PD lists no store for (none registered, or already removed)
 * goes straight to the claims once the cluster is bootstrapped. A Down or Disconnected store waits
 * (PD cannot move regions off a store that is not reachable; failover handles that).
 */
public final class TikvVolumeReplace {

  private TikvVolumeReplace() {}

  /**
   * What one pass sees.
   *
   * @param pod the annotated pod
   * @param stores this cluster's TiKV stores as PD lists them now
   * @param desired the StatefulSet's replicas (spare replicas included)
   * @param allPodsReady every pod of the StatefulSet is Ready
   * @param maxReplicas PD's {@code replication.max-replicas}
   * @param bootstrapped PD lists at least one store
   * @param claims the pod's claims that exist, by name
   */
  public record Facts(
      ObservedPod pod,
      TikvStores stores,
      int desired,
      boolean allPodsReady,
      int maxReplicas,
      boolean bootstrapped,
      Map<String, PersistentVolumeClaim> claims) {}

  public static MemberDecision decide(Facts f) {
    String pod = f.pod().name();
    Optional<TikvStores.Store> store = f.stores().of(pod);
    if (store.isEmpty()) {
      if (!f.bootstrapped() && !f.stores().tombstonePods().contains(pod)) {
        return MemberDecision.waitFor(
            "replacing the volumes of " + pod + ": waiting for PD to list TiKV stores");
      }
      return VolumeReplace.dropVolumes(f.pod(), f.claims(), "TiKV");
    }
    TikvStores.Store s = store.get();
    if (s.offline()) {
      return MemberDecision.waitFor(
          "replacing the volumes of " + pod + ": " + s.label() + " is Offline; waiting for PD to"
              + " move its " + s.regionCount() + " regions away and make it Tombstone");
    }
    if (!s.up()) {
      return MemberDecision.waitFor(
          "replacing the volumes of " + pod + ": " + s.label() + " is " + s.state() + "; its"
              + " store is deleted only while it is Up");
    }
    long up = f.stores().upInPd();
    if (!f.allPodsReady() || up != f.stores().live().size() || up < f.desired()) {
      return MemberDecision.waitFor(
          "replacing the volumes of " + pod + ": waiting until all " + f.desired() + " TiKV"
              + " stores (spare replicas included) are Up and their pods Ready (" + up
              + " Up)");
    }
    if (up - 1 < f.maxReplicas()) {
      return new MemberDecision.Blocked(
          "FailedVolumeReplace",
          "cannot replace the volumes of " + pod + ": deleting " + s.label() + " would leave "
              + (up - 1) + " Up stores, fewer than PD's max-replicas (" + f.maxReplicas()
              + "); raise spec.tikv.spareVolReplaceReplicas or add stores");
    }
    return new MemberDecision.Act(
        new TikvActions.DeleteStore(s.id(), pod),
        "replacing the volumes of " + pod + ": deleting " + s.label() + " (PD moves its"
            + " regions away and makes it Tombstone)");
  }
}
