package io.tidb.operator.controller.tidbcluster.tikv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tidb.operator.controller.tidbcluster.member.MemberDecision;
import io.tidb.operator.controller.tidbcluster.member.ObservedPod;
import io.tidb.operator.controller.tidbcluster.member.Rollout;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** A scale-in given up while its store is still Offline: the removal is cancelled. */
class AbandonedScaleInTest {

  private static final Instant T = Instant.parse("2026-01-01T00:00:00Z");

  private static Rollout rollout(int replicas) {
    Map<Integer, ObservedPod> pods = new TreeMap<>();
    for (int i = 0; i < replicas; i++) {
      pods.put(i, new ObservedPod(i, "basic-tikv-" + i, "u" + i, "r1", Optional.of(T), T, false));
    }
    return new Rollout("basic-tikv", replicas, replicas, true, false, "r1", "r1", pods);
  }

  private static TikvStores stores(String stateOf3) {
    Map<String, TikvStores.Store> live = new TreeMap<>();
    for (int i = 0; i < 4; i++) {
      String pod = "basic-tikv-" + i;
      live.put(pod, new TikvStores.Store(String.valueOf(i + 1), pod, i == 3 ? stateOf3 : "Up", 5, 40));
    }
    return new TikvStores(live, Set.of(), Set.of(), Map.of());
  }

  @Test
  void anOfflineStoreTheSpecWantsAgainIsSetBackUp() {
    MemberDecision d = TikvScaleIn.cancelAbandoned(stores("Offline"), rollout(4), 4).orElseThrow();
    MemberDecision.Act act = (MemberDecision.Act) d;
    assertEquals(new TikvActions.CancelRemoval("4", "basic-tikv-3"), act.action());
    assertTrue(act.message().contains("store 4 (basic-tikv-3)"), act.message());
  }

  @Test
  void anOfflineStoreStillBeingRemovedIsLeftAlone() {
    assertTrue(TikvScaleIn.cancelAbandoned(stores("Offline"), rollout(4), 3).isEmpty());
  }

  @Test
  void upStoresNeedNothing() {
    assertTrue(TikvScaleIn.cancelAbandoned(stores("Up"), rollout(4), 4).isEmpty());
  }

  @Test
  void aStoreRemovedForAVolumeReplaceIsNotCancelled() {
    Rollout r = rollout(4);
    Map<Integer, ObservedPod> pods = new TreeMap<>(r.pods());
    pods.put(3, new ObservedPod(3, "basic-tikv-3", "u3", "r1", Optional.of(T), T, false,
        Map.of(io.tidb.operator.controller.tidbcluster.member.VolumeReplace.ANNOTATION, "true")));
    Rollout annotated = new Rollout("basic-tikv", 4, 4, true, false, "r1", "r1", pods);
    assertTrue(TikvScaleIn.cancelAbandoned(stores("Offline"), annotated, 4).isEmpty());
  }
}
