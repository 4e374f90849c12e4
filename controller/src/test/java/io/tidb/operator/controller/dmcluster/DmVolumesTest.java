package io.tidb.operator.controller.dmcluster;

import static io.tidb.operator.controller.fixtures.Rollouts.NEW;
import static io.tidb.operator.controller.fixtures.Rollouts.rollout;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.tidb.operator.controller.tidbcluster.member.VolumeActions;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The decision table of DM data claims: deferred deletion, deletion before scale-out, enablePVReclaim, pvReclaimPolicy. */
class DmVolumesTest {

  private static final String SET = "dc-dm-worker";

  private static PersistentVolumeClaim claim(int ordinal, boolean deferred, String volume) {
    return new PersistentVolumeClaimBuilder()
        .withNewMetadata().withName("dm-worker-" + SET + "-" + ordinal).withUid("uid-" + ordinal)
        .withAnnotations(deferred ? Map.of(VolumeActions.DEFER_DELETING, "2026-12-01T00:00:00Z") : null)
        .endMetadata()
        .withNewSpec().withVolumeName(volume).endSpec()
        .build();
  }

  private static DmVolumes decide(List<PersistentVolumeClaim> claims, int current, int planned, boolean reclaim,
      int... podsPresent) {
    var b = rollout(SET, current);
    for (int o : podsPresent) {
      b.ready(o, NEW);
    }
    return DmVolumes.decide("dm-worker", SET, claims, Optional.of(b.build()), planned, reclaim, "dm-worker");
  }

  @Test
  void aScaleInMarksTheRemovedOrdinalsClaims() {
    DmVolumes v = decide(List.of(claim(0, false, null), claim(1, false, null), claim(2, false, null)), 3, 1, false,
        0, 1, 2);
    assertEquals(1, v.replicas());
    assertEquals(List.of("dm-worker-" + SET + "-1", "dm-worker-" + SET + "-2"), v.mark());
    assertTrue(v.delete().isEmpty() && v.reclaim().isEmpty());
    assertEquals(List.of(), decide(List.of(claim(0, false, null), claim(1, true, null)), 2, 1, false, 0, 1).mark(),
        "an already marked claim is not marked again");
  }

  @Test
  void aMarkedClaimOfANewOrdinalIsDeletedBeforeTheScaleOut() {
    DmVolumes v = decide(List.of(claim(0, false, null), claim(1, true, null)), 1, 2, false, 0);
    assertEquals(1, v.replicas(), "the scale-out waits");
    assertEquals("dm-worker-" + SET + "-1", v.delete().orElseThrow().claim());
    assertEquals("uid-1", v.delete().orElseThrow().uid());
    assertTrue(v.message().orElseThrow().contains("starts with an empty volume"), v.message().toString());
    DmVolumes clean = decide(List.of(claim(0, false, null)), 1, 2, false, 0);
    assertEquals(2, clean.replicas());
    assertTrue(clean.delete().isEmpty());
    DmVolumes unmarked = decide(List.of(claim(0, false, null), claim(1, false, null)), 1, 2, false, 0);
    assertEquals(2, unmarked.replicas(), "a claim not marked (e.g. a failover replacement's) is reused");
  }

  @Test
  void enablePvReclaimDeletesAMarkedClaimOnceItsPodIsGone() {
    List<PersistentVolumeClaim> claims = List.of(claim(0, false, "pv-0"), claim(1, true, "pv-1"));
    assertTrue(decide(claims, 1, 1, false, 0).reclaim().isEmpty(), "enablePVReclaim false: kept");
    assertTrue(decide(claims, 1, 1, true, 0, 1).reclaim().isEmpty(), "its pod still runs");
    DmVolumes v = decide(claims, 1, 1, true, 0);
    assertEquals("dm-worker-" + SET + "-1", v.reclaim().orElseThrow().claim());
    assertEquals("pv-1", v.reclaim().orElseThrow().volume());
    assertEquals(1, v.replicas());
  }

  @Test
  void withoutAStatefulSetNothingIsDecided() {
    DmVolumes v = DmVolumes.decide("dm-worker", SET, List.of(claim(1, true, null)), Optional.empty(), 2, true, "dm-worker");
    assertEquals(2, v.replicas());
    assertTrue(v.mark().isEmpty() && v.delete().isEmpty() && v.reclaim().isEmpty());
  }

  private static PersistentVolume pv(String policy) {
    return new PersistentVolumeBuilder().withNewMetadata().withName("pv-0").endMetadata()
        .withNewSpec().withPersistentVolumeReclaimPolicy(policy).endSpec().build();
  }

  @Test
  void pvReclaimPolicyIsSetOnBoundVolumesExceptThoseReclaimDeletes() {
    assertEquals(Optional.of("pv-0"), DmVolumes.policyToSet(claim(0, false, "pv-0"), Optional.of(pv("Delete")), "Retain", false));
    assertEquals(Optional.empty(), DmVolumes.policyToSet(claim(0, false, "pv-0"), Optional.of(pv("Retain")), "Retain", false));
    assertEquals(Optional.empty(), DmVolumes.policyToSet(claim(0, false, "pv-0"), Optional.empty(), "Retain", false),
        "volume not readable");
    assertEquals(Optional.empty(), DmVolumes.policyToSet(claim(0, true, "pv-0"), Optional.of(pv("Delete")), "Retain", true),
        "a marked claim enablePVReclaim deletes keeps Delete");
    assertEquals(Optional.of("pv-0"), DmVolumes.policyToSet(claim(0, true, "pv-0"), Optional.of(pv("Delete")), "Retain", false));
  }
}
