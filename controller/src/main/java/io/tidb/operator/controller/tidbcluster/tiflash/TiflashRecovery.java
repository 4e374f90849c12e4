package io.tidb.operator.controller.tidbcluster.tiflash;

import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import java.util.Map;
import java.util.Optional;

/**
 * Upstream's hold on TiFlash while a cluster is restored from volume snapshots ({@code
 * spec.recoveryMode: true}): TiFlash is left alone until the restore has marked TiKV's volumes
 * ready (the annotation {@value #VOLUMES_READY} on the TidbCluster) and PD's snapshot-recovering
 * mark is cleared, so TiFlash's store ids cannot clash with those PD hands out for the restored
 * TiKV stores. The rest of the cluster is reconciled meanwhile.
 */
final class TiflashRecovery {

  /** Set on the TidbCluster by the volume-snapshot restore once TiKV's volumes are restored. */
  static final String VOLUMES_READY = "tidb.pingcap.com/tikv-volumes-ready";

  /** PD's answer to the snapshot-recovering mark: marked, or unknown (the call failed). */
  enum Mark { MARKED, CLEAR, UNKNOWN }

  private TiflashRecovery() {}

  /** Whether TiFlash must wait for the restore before PD is asked anything. */
  static Optional<String> waitingForVolumes(TidbCluster tc) {
    if (!Boolean.TRUE.equals(tc.getSpec().getRecoveryMode())) {
      return Optional.empty();
    }
    Map<String, String> annotations = tc.getMetadata().getAnnotations();
    if (annotations == null || !annotations.containsKey(VOLUMES_READY)) {
      return Optional.of("TiFlash: spec.recoveryMode is true; waiting for TiKV's volumes to be "
          + "restored (annotation " + VOLUMES_READY + ")");
    }
    return Optional.empty();
  }

  /**
   * With the volumes ready, whether PD's mark still holds TiFlash. A mark PD could not be asked
   * about does not hold it, as upstream reads a failed call as no mark.
   */
  static Optional<String> waitingForMark(Mark mark) {
    return mark == Mark.MARKED
        ? Optional.of("TiFlash: spec.recoveryMode is true; waiting for PD's snapshot-recovering "
            + "mark to be cleared")
        : Optional.empty();
  }
}
