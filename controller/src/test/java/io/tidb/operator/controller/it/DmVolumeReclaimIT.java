package io.tidb.operator.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.tidb.operator.testsupport.Await;
import io.tidb.operator.testsupport.ClusterAccess;
import io.tidb.operator.testsupport.WithLocalControlPlane;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The data claims a dm-worker scale-in leaves: kept and marked {@code
 * tidb.pingcap.com/pvc-defer-deleting}, deleted before the ordinal comes back so the new worker
 * starts empty; with {@code enablePVReclaim} deleted once the pod is gone.
 */
@WithLocalControlPlane
class DmVolumeReclaimIT {

  private static final String DEFER = "tidb.pingcap.com/pvc-defer-deleting";

  private static DmHarness h;

  @BeforeAll
  static void start(ClusterAccess access) {
    h = new DmHarness(access, "dm-volume-it");
  }

  @AfterAll
  static void stop() {
    if (h != null) {
      h.close();
    }
  }

  private static Optional<PersistentVolumeClaim> claim(String name) {
    return Optional.ofNullable(h.admin.persistentVolumeClaims().inNamespace(h.namespace).withName(name).get());
  }

  private static void workers(String dc, int replicas) {
    h.edit(dc, d -> {
      d.getSpec().getWorker().setReplicas(replicas);
      return d;
    });
  }

  private static void create(String dc, boolean reclaim) {
    h.create(dc, """
        version: v8.5.7
        enablePVReclaim: %s
        master: {replicas: 1, storageSize: 1Gi}
        worker: {replicas: 2, storageSize: 1Gi}
        """.formatted(reclaim));
  }

  private static void awaitEvent(String cluster, String reason) {
    Await.until(cluster + ": a " + reason + " Event", DmHarness.CONVERGE,
        () -> h.hasEvent(cluster, reason), Boolean::booleanValue);
  }

  @Test
  void scaleInKeepsTheClaimUntilTheOrdinalReturnsOrReclaimDeletesIt() {
    create("keep", false);
    create("reclaim", true);
    h.awaitReady("keep");
    h.awaitReady("reclaim");
    String keepClaim = "dm-worker-keep-dm-worker-1";
    String oldUid = Await.until(keepClaim + " exists", DmHarness.CONVERGE, () -> claim(keepClaim), Optional::isPresent)
        .orElseThrow().getMetadata().getUid();
    Await.until("dm-worker-reclaim-dm-worker-1 exists", DmHarness.CONVERGE,
        () -> claim("dm-worker-reclaim-dm-worker-1"), Optional::isPresent);

    workers("keep", 1);
    workers("reclaim", 1);
    h.await("keep", "one worker", d -> DmHarness.ready(d) && d.getStatus().getWorker().getMembers().size() == 1);
    PersistentVolumeClaim kept = Await.until(keepClaim + " marked", DmHarness.CONVERGE, () -> claim(keepClaim),
        c -> c.isPresent() && c.get().getMetadata().getAnnotations() != null
            && c.get().getMetadata().getAnnotations().containsKey(DEFER)).orElseThrow();
    assertEquals(oldUid, kept.getMetadata().getUid(), "kept, not deleted");
    // Each Event is written right after what it reports: wait for it, not just for the claim.
    awaitEvent("keep", "VolumeDeferDeleting");
    Await.until("the reclaim cluster's claim deleted", DmHarness.CONVERGE,
        () -> claim("dm-worker-reclaim-dm-worker-1"), c -> c.isEmpty() || c.get().getMetadata().getDeletionTimestamp() != null);
    awaitEvent("reclaim", "VolumeClaimDeleted");

    workers("keep", 2);
    h.await("keep", "two workers again", d -> DmHarness.ready(d) && d.getStatus().getWorker().getMembers().size() == 2);
    PersistentVolumeClaim fresh = claim(keepClaim).orElseThrow();
    assertNotEquals(oldUid, fresh.getMetadata().getUid(), "the returning worker got a new, empty claim");
    assertTrue(fresh.getMetadata().getAnnotations() == null || !fresh.getMetadata().getAnnotations().containsKey(DEFER));
    assertTrue(h.hasEvent("keep", "VolumeClaimDeleted"));
    assertEquals(List.of("DELETE /apis/v1alpha1/members/worker/keep-dm-worker-1"), h.dmMutations("keep"));
  }
}
