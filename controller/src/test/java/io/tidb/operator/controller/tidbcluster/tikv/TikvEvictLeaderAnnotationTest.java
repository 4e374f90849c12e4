package io.tidb.operator.controller.tidbcluster.tikv;

import static io.tidb.operator.controller.fixtures.Rollouts.LONG_AGO;
import static io.tidb.operator.controller.fixtures.Rollouts.NOW;
import static io.tidb.operator.controller.fixtures.Rollouts.OLD;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tidb.operator.api.v1alpha1.cluster.EvictLeaderStatus;
import io.tidb.operator.controller.fixtures.Rollouts;
import io.tidb.operator.controller.runtime.Conditions;
import io.tidb.operator.controller.tidbcluster.member.MemberDecision;
import io.tidb.operator.controller.tidbcluster.member.ObservedPod;
import io.tidb.operator.controller.tidbcluster.member.PodActions;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class TikvEvictLeaderAnnotationTest {

  private static final Duration TIMEOUT = Duration.ofMinutes(10);
  private static final String KEY = TikvEvictLeaderAnnotation.KEY;
  private static final String CREATED = Conditions.timestamp(LONG_AGO);

  /** Three Ready TiKV pods; basic-tikv-N has store N+1, Up, with 10 leaders. */
  private static final class World {
    final Rollouts.Builder pods = Rollouts.rollout("basic-tikv", 3).allReady(OLD);
    final Map<String, TikvStores.Store> live = new TreeMap<>();
    final Set<String> evicting = new TreeSet<>();
    final Map<String, EvictLeaderStatus> records = new TreeMap<>();

    World() {
      for (int i = 0; i < 3; i++) {
        store(i, 10);
      }
    }

    World store(int ordinal, int leaders) {
      String pod = "basic-tikv-" + ordinal;
      live.put(pod, new TikvStores.Store(String.valueOf(ordinal + 1), pod, "Up", leaders, 100));
      return this;
    }

    World annotate(int ordinal, Map<String, String> annotations, Instant created, boolean ready) {
      pods.pod(new ObservedPod(ordinal, "basic-tikv-" + ordinal, "uid-" + ordinal, OLD,
          ready ? Optional.of(created) : Optional.empty(), created, false, annotations));
      return this;
    }

    World annotate(int ordinal, String value) {
      return annotate(ordinal, Map.of(KEY, value), LONG_AGO, true);
    }

    /** Store of basic-tikv-{@code ordinal} evicted, recorded with {@code value}. */
    World evicted(int ordinal, String value, String podCreateTime, Instant began) {
      evicting.add(String.valueOf(ordinal + 1));
      EvictLeaderStatus e = new EvictLeaderStatus();
      e.setValue(value);
      e.setPodCreateTime(podCreateTime);
      e.setBeginTime(Conditions.timestamp(began));
      records.put("basic-tikv-" + ordinal, e);
      return this;
    }

    MemberDecision decide() {
      return TikvEvictLeaderAnnotation.decide(
          new TikvEvictLeaderAnnotation.Facts(
              pods.build(), new TikvStores(live, Set.of(), evicting, Map.of()), records, TIMEOUT,
              NOW));
    }

    Set<String> requested() {
      return TikvEvictLeaderAnnotation.requested(pods.build(), live, records, NOW);
    }
  }

  private static MemberDecision.Act act(MemberDecision d) {
    return assertInstanceOf(MemberDecision.Act.class, d, d::toString);
  }

  // --- begin ---

  @Test
  void anAnnotatedPodGetsItsStoreEvictedAndRecorded() {
    MemberDecision.Act a = act(new World().annotate(1, "none").decide());
    assertEquals(new TikvActions.BeginUserEvict("2", "basic-tikv-1", CREATED, "none"), a.action());
    assertEquals("EvictLeaderBegun", a.action().reason());
    assertEquals(
        "moving the 10 region leaders off store 2 (basic-tikv-1) as its annotation"
            + " tidb.pingcap.com/evict-leader=none asks",
        a.message());
  }

  @Test
  void anEvictionInPlaceWithItsRecordIsLeftAlone() {
    World w = new World().annotate(1, "none").evicted(1, "none", CREATED, NOW);
    assertEquals(MemberDecision.IDLE, w.decide());
  }

  @Test
  void anEvictionFoundWithoutAUserRecordIsRecordedAgain() {
    // the operator stopped between PD's scheduler and the status write: the record says adopted
    World w = new World().annotate(1, "delete-pod").evicted(1, "adopted", null, NOW);
    assertEquals(new TikvActions.BeginUserEvict("2", "basic-tikv-1", CREATED, "delete-pod"),
        act(w.decide()).action());
  }

  @Test
  void aChangedValueIsRecordedAgain() {
    World w = new World().annotate(1, "delete-pod").evicted(1, "none", CREATED, NOW);
    assertEquals(new TikvActions.BeginUserEvict("2", "basic-tikv-1", CREATED, "delete-pod"),
        act(w.decide()).action());
  }

  @Test
  void anUnknownValueOrAPodWithoutAStoreIsIgnored() {
    assertEquals(MemberDecision.IDLE, new World().annotate(1, "yes").decide());
    World w = new World().annotate(1, "none");
    w.live.remove("basic-tikv-1");
    assertEquals(MemberDecision.IDLE, w.decide());
  }

  @Test
  void anExpiredAnnotationCountsAsRemoved() {
    Map<String, String> expired = Map.of(
        KEY, "none", TikvEvictLeaderAnnotation.EXPIRATION_KEY, Conditions.timestamp(NOW));
    assertEquals(MemberDecision.IDLE, new World().annotate(1, expired, LONG_AGO, true).decide());

    World w = new World().annotate(1, expired, LONG_AGO, true).evicted(1, "none", CREATED, NOW);
    MemberDecision.Act a = act(w.decide());
    assertEquals(new TikvActions.EndEvict("2", "basic-tikv-1"), a.action());
    assertTrue(a.message().contains("expired"), a.message());

    Map<String, String> later = Map.of(
        KEY, "none", TikvEvictLeaderAnnotation.EXPIRATION_KEY,
        Conditions.timestamp(NOW.plusSeconds(60)));
    assertEquals(new TikvActions.BeginUserEvict("2", "basic-tikv-1", CREATED, "none"),
        act(new World().annotate(1, later, LONG_AGO, true).decide()).action());
  }

  // --- delete-pod ---

  @Test
  void deletePodWaitsForTheLeadersToLeave() {
    World w = new World().store(1, 4).annotate(1, "delete-pod")
        .evicted(1, "delete-pod", CREATED, NOW.minusSeconds(30));
    assertEquals(
        MemberDecision.waitFor(
            "moving region leaders off store 2 (basic-tikv-1) before deleting the pod"
                + " (tidb.pingcap.com/evict-leader=delete-pod): 4 left"),
        w.decide());
  }

  @Test
  void deletePodDeletesThePodOnceNoLeaderIsLeft() {
    World w = new World().store(1, 0).annotate(1, "delete-pod")
        .evicted(1, "delete-pod", CREATED, NOW.minusSeconds(30));
    MemberDecision.Act a = act(w.decide());
    assertEquals(new PodActions.DeletePod("basic-tikv-1", "uid-1"), a.action());
    assertEquals("PodDeleted", a.action().reason());
    assertEquals(
        "deleting pod basic-tikv-1 (tidb.pingcap.com/evict-leader=delete-pod): its store 2 has"
            + " no region leaders left",
        a.message());
  }

  @Test
  void deletePodDeletesThePodWhenTheTimeoutPasses() {
    World w = new World().store(1, 4).annotate(1, "delete-pod")
        .evicted(1, "delete-pod", CREATED, NOW.minus(TIMEOUT));
    MemberDecision.Act a = act(w.decide());
    assertEquals(new PodActions.DeletePod("basic-tikv-1", "uid-1"), a.action());
    assertTrue(a.message().contains("evictLeaderTimeout passed with 4 leaders left"));
  }

  @Test
  void aPodBeingDeletedIsNotDeletedAgain() {
    World w = new World().store(1, 0).evicted(1, "delete-pod", CREATED, NOW.minusSeconds(30));
    w.pods.pod(new ObservedPod(1, "basic-tikv-1", "uid-1", OLD, Optional.of(LONG_AGO), LONG_AGO,
        true, Map.of(KEY, "delete-pod")));
    assertEquals(MemberDecision.IDLE, w.decide());
  }

  // --- end ---

  @Test
  void removingTheAnnotationEndsANoneEviction() {
    World w = new World().evicted(1, "none", CREATED, NOW);
    MemberDecision.Act a = act(w.decide());
    assertEquals(new TikvActions.EndEvict("2", "basic-tikv-1"), a.action());
    assertEquals(
        "ending leader eviction of store 2 (basic-tikv-1): annotation"
            + " tidb.pingcap.com/evict-leader was removed",
        a.message());
  }

  @Test
  void aDeletedPodsEvictionEndsWhenTheRecreatedPodIsReady() {
    // recreated, not Ready yet: the eviction stays
    World w = new World().evicted(1, "delete-pod", CREATED, NOW)
        .annotate(1, Map.of(), NOW.minusSeconds(5), false);
    assertEquals(MemberDecision.IDLE, w.decide());
    // gone for a moment: stays too
    w = new World().evicted(1, "delete-pod", CREATED, NOW);
    w.pods.without(1);
    assertEquals(MemberDecision.IDLE, w.decide());
    // Ready: ends
    w = new World().evicted(1, "delete-pod", CREATED, NOW)
        .annotate(1, Map.of(), NOW.minusSeconds(5), true);
    MemberDecision.Act a = act(w.decide());
    assertEquals(new TikvActions.EndEvict("2", "basic-tikv-1"), a.action());
    assertTrue(a.message().endsWith("its pod was recreated"), a.message());
  }

  @Test
  void aRecordWhosePodHasNoStoreIsForgotten() {
    World w = new World().evicted(1, "none", CREATED, NOW);
    w.live.remove("basic-tikv-1");
    assertEquals(new TikvActions.ForgetEvict("basic-tikv-1"), act(w.decide()).action());
  }

  @Test
  void operatorRecordsAreNotTheRulesBusiness() {
    World w = new World().evicted(1, "upgrade", null, NOW);
    assertEquals(MemberDecision.IDLE, w.decide());
  }

  @Test
  void aRecordOfAnEarlierPodIsRecordedAgainForTheAnnotatedOne() {
    World w = new World().annotate(1, "none")
        .evicted(1, "none", Conditions.timestamp(LONG_AGO.minusSeconds(60)), NOW);
    assertEquals(new TikvActions.BeginUserEvict("2", "basic-tikv-1", CREATED, "none"),
        act(w.decide()).action());
  }

  @Test
  void theEndSaysWhy() {
    World gone = new World().evicted(1, "none", CREATED, NOW);
    gone.pods.without(1);
    assertTrue(act(gone.decide()).message().endsWith(": its pod is gone"));
    World unknown = new World().annotate(1, "bogus").evicted(1, "none", CREATED, NOW);
    assertTrue(act(unknown.decide()).message().endsWith(
        ": annotation tidb.pingcap.com/evict-leader has an unknown value"));
    World noCreateTime = new World().evicted(1, "none", null, NOW);
    assertTrue(act(noCreateTime.decide()).message().endsWith("was removed"));
  }

  @Test
  void anExpirationTimeThatCannotBeReadHasExpired() {
    Map<String, String> bad = Map.of(KEY, "none", TikvEvictLeaderAnnotation.EXPIRATION_KEY, "soon");
    assertEquals(MemberDecision.IDLE, new World().annotate(1, bad, LONG_AGO, true).decide());
  }

  // --- what the stray rules must leave alone ---

  @Test
  void requestedStoresAreTheAnnotatedOnesAndTheUserRecords() {
    World w = new World().annotate(0, "none").annotate(1, "bogus")
        .evicted(2, "delete-pod", CREATED, NOW);
    assertEquals(Set.of("1", "3"), w.requested());
    w = new World().evicted(2, "scale-in", CREATED, NOW);
    assertEquals(Set.of(), w.requested());
  }
}
