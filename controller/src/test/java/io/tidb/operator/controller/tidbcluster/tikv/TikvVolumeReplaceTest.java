package io.tidb.operator.controller.tidbcluster.tikv;

import static io.tidb.operator.controller.fixtures.Rollouts.LONG_AGO;
import static io.tidb.operator.controller.fixtures.Rollouts.OLD;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.tidb.operator.controller.tidbcluster.member.MemberDecision;
import io.tidb.operator.controller.tidbcluster.member.ObservedPod;
import io.tidb.operator.controller.tidbcluster.member.VolumeReplace;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Decision table of TiKV's volume replace of basic-tikv-1 in a 3 + 1 spare TiKV cluster. */
class TikvVolumeReplaceTest {

  private static final ObservedPod POD = new ObservedPod(1, "basic-tikv-1", "uid-1", OLD,
      Optional.of(LONG_AGO), LONG_AGO, false, Map.of(VolumeReplace.ANNOTATION, "true"));

  private static final Map<String, PersistentVolumeClaim> CLAIMS = Map.of("tikv-basic-tikv-1",
      new PersistentVolumeClaimBuilder().withNewMetadata().withName("tikv-basic-tikv-1")
          .withUid("c1").endMetadata().build());

  /** Stores of basic-tikv-0..n-1, all Up except as given. */
  private static TikvStores stores(int n, String pod1State, Set<String> tombstones) {
    Map<String, TikvStores.Store> live = new TreeMap<>();
    for (int i = 0; i < n; i++) {
      String state = i == 1 ? pod1State : "Up";
      if (state != null) {
        live.put("basic-tikv-" + i, new TikvStores.Store("" + (i + 1), "basic-tikv-" + i, state, 5, 20));
      }
    }
    return new TikvStores(live, tombstones, Set.of(), Map.of());
  }

  private static MemberDecision decide(TikvStores stores, int desired, boolean ready, int max) {
    return TikvVolumeReplace.decide(
        new TikvVolumeReplace.Facts(POD, stores, desired, ready, max, true, CLAIMS));
  }

  @Test
  void anUpStoreIsDeletedWhenAllFourAreUpAndThreeRemain() {
    MemberDecision.Act a = assertInstanceOf(MemberDecision.Act.class,
        decide(stores(4, "Up", Set.of()), 4, true, 3));
    assertEquals(new TikvActions.DeleteStore("2", "basic-tikv-1"), a.action());
  }

  @Test
  void waitsForTheSpareStore() {
    assertInstanceOf(MemberDecision.Wait.class, decide(stores(3, "Up", Set.of()), 4, true, 3));
    assertInstanceOf(MemberDecision.Wait.class, decide(stores(4, "Up", Set.of()), 4, false, 3));
  }

  @Test
  void refusesToGoBelowMaxReplicas() {
    MemberDecision.Blocked b = assertInstanceOf(MemberDecision.Blocked.class,
        decide(stores(3, "Up", Set.of()), 3, true, 3));
    assertEquals("cannot replace the volumes of basic-tikv-1: deleting store 2 (basic-tikv-1)"
        + " would leave 2 Up stores, fewer than PD's max-replicas (3); raise"
        + " spec.tikv.spareVolReplaceReplicas or add stores", b.message());
  }

  @Test
  void anOfflineStoreIsWaitedForUntilTombstone() {
    assertEquals(MemberDecision.waitFor("replacing the volumes of basic-tikv-1: store 2"
            + " (basic-tikv-1) is Offline; waiting for PD to move its 20 regions away and make it"
            + " Tombstone"),
        decide(stores(4, "Offline", Set.of()), 4, true, 3));
  }

  @Test
  void aDownStoreIsNotDeleted() {
    assertInstanceOf(MemberDecision.Wait.class, decide(stores(4, "Down", Set.of()), 4, true, 3));
  }

  @Test
  void aTombstoneLeadsToTheClaims() {
    MemberDecision.Act a = assertInstanceOf(MemberDecision.Act.class,
        decide(stores(4, null, Set.of("basic-tikv-1")), 4, false, 3));
    assertEquals(new VolumeReplace.DeleteClaims(Map.of("tikv-basic-tikv-1", "c1")), a.action());
  }

  @Test
  void beforePdListsStoresNothingIsDeleted() {
    assertInstanceOf(MemberDecision.Wait.class, TikvVolumeReplace.decide(
        new TikvVolumeReplace.Facts(POD, stores(0, null, Set.of()), 4, true, 3, false, CLAIMS)));
  }
}
