package io.tidb.operator.pdsim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tidb.operator.pdsim.JournalEntry.Event;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The state-transition journal of {@link SimulatedPdCluster}, through the cluster's own API. */
class StateJournalTest {

  private static final ClusterKey KEY = new ClusterKey("ns", "basic");
  private final MutableClock clock = new MutableClock(Instant.parse("2025-01-15T08:00:00Z"));

  private SimulatedPdCluster cluster() {
    return new SimulatedPdCluster(
        KEY, SimulationSettings.defaults().withDrainSteps(2), clock, new Random(7));
  }

  private static PodInstance running(String name, String uid) {
    return new PodInstance(name, uid, true);
  }

  private static List<PodInstance> pds() {
    return List.of(running("basic-pd-0", "p0"), running("basic-pd-1", "p1"),
        running("basic-pd-2", "p2"));
  }

  private static List<PodInstance> tikvs(int count) {
    List<PodInstance> pods = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      pods.add(running("basic-tikv-" + i, "k" + i));
    }
    return pods;
  }

  private static ClusterPods pods(List<PodInstance> pd, List<PodInstance> tikv) {
    return new ClusterPods(pd, tikv, List.of(), List.of());
  }

  private static List<String> events(List<JournalEntry> entries) {
    return entries.stream()
        .map(e -> e.event().wireName() + (e.storeId() != null ? " " + e.storeId() : "")
            + (e.member() != null ? " " + e.member() : ""))
        .toList();
  }

  private static List<JournalEntry> since(SimulatedPdCluster cluster, int seen) {
    List<JournalEntry> all = cluster.journal();
    return all.subList(seen, all.size());
  }

  @Test
  void podsJoiningAreJournaledOneTransitionAtATimeWithCountsAfterEach() {
    SimulatedPdCluster cluster = cluster();
    cluster.syncPods(pods(pds(), tikvs(4)));

    List<JournalEntry> journal = cluster.journal();
    // addMember journals each member as it joins (the first one becomes leader at once); the
    // stores of the same pod sync are journaled at its end, in id order.
    assertEquals(List.of(
        "member-added basic-pd-0", "leader-changed basic-pd-0",
        "member-added basic-pd-1", "member-added basic-pd-2",
        "store-joined 1", "store-joined 2", "store-joined 3", "store-joined 4"),
        events(journal));
    for (int i = 0; i < journal.size(); i++) {
      assertEquals(i + 1, journal.get(i).seq());
    }
    assertEquals(List.of(1, 2, 3, 4),
        journal.subList(4, 8).stream().map(JournalEntry::upTikvStores).toList());
    JournalEntry last = journal.get(7);
    assertEquals("basic-tikv-3", last.pod());
    assertEquals("basic-pd-0", last.leader());
    assertEquals(3, last.members());
    assertEquals(3, last.healthyMembers());
    assertEquals(3, last.maxReplicas());
    assertEquals(clock.instant(), last.time());
  }

  @Test
  void scaleInIsOfflineThenTombstoneThenPodRemoved() {
    SimulatedPdCluster cluster = cluster();
    cluster.syncPods(pods(pds(), tikvs(4)));
    int seen = cluster.journal().size();

    clock.advance(Duration.ofSeconds(1));
    cluster.deleteStore(4, false);
    cluster.deleteStore(4, false);        // already Offline: no transition, no entry
    cluster.step();
    cluster.step();                       // drainSteps = 2: Tombstone now
    cluster.syncPods(pods(pds(), tikvs(3)));

    List<JournalEntry> entries = since(cluster, seen);
    assertEquals(List.of("store-offline 4", "store-tombstone 4", "store-pod-removed 4"),
        events(entries));
    assertEquals(List.of(3, 3, 3), entries.stream().map(JournalEntry::upTikvStores).toList());
    assertEquals(List.of(1, 0, 0),
        entries.stream().map(JournalEntry::offlineTikvStores).toList());
    // Between Tombstone and the pod's removal the scale-in is still in flight.
    assertEquals(List.of(0, 1, 0),
        entries.stream().map(JournalEntry::tombstoneTikvPods).toList());
    assertEquals(Instant.parse("2025-01-15T08:00:01Z"), entries.get(0).time());
  }

  @Test
  void aTombstonePodBeingDeletedCountsAsRemoved() {
    SimulatedPdCluster cluster = cluster();
    cluster.syncPods(pods(pds(), tikvs(4)));
    cluster.deleteStore(4, false);
    cluster.step();
    cluster.step();
    int seen = cluster.journal().size();

    List<PodInstance> deleting = new ArrayList<>(tikvs(3));
    deleting.add(new PodInstance("basic-tikv-3", "k3", true, true));
    cluster.syncPods(pods(pds(), deleting));
    cluster.syncPods(pods(pds(), tikvs(3)));   // then gone: nothing more to journal

    List<JournalEntry> entries = since(cluster, seen);
    assertEquals(List.of("store-pod-removed 4"), events(entries));
    assertEquals(0, entries.get(0).tombstoneTikvPods());
  }

  @Test
  void anOfflineStoreWhosePodGoesAwayIsBuriedAndItsPodRemoved() {
    SimulatedPdCluster cluster = cluster();
    cluster.syncPods(pods(pds(), tikvs(4)));
    int seen = cluster.journal().size();

    cluster.deleteStore(4, false);
    cluster.syncPods(pods(pds(), tikvs(3)));

    assertEquals(List.of("store-offline 4", "store-tombstone 4", "store-heartbeat-lost 4",
        "store-pod-removed 4"), events(since(cluster, seen)));
    assertEquals(0, cluster.journal().get(cluster.journal().size() - 1).tombstoneTikvPods());
  }

  @Test
  void cancelledRemovalIsStoreUp() {
    SimulatedPdCluster cluster = cluster();
    cluster.syncPods(pods(pds(), tikvs(4)));
    int seen = cluster.journal().size();

    cluster.setStoreState(2, "Offline");
    cluster.setStoreState(2, "Up");

    List<JournalEntry> entries = since(cluster, seen);
    assertEquals(List.of("store-offline 2", "store-up 2"), events(entries));
    assertEquals(List.of(3, 4), entries.stream().map(JournalEntry::upTikvStores).toList());
  }

  @Test
  void aRestartingPodStopsAndResumesItsStoreWhichStaysUp() {
    SimulatedPdCluster cluster = cluster();
    cluster.syncPods(pods(pds(), tikvs(3)));
    int seen = cluster.journal().size();

    List<PodInstance> restarting = new ArrayList<>(tikvs(3));
    restarting.set(1, new PodInstance("basic-tikv-1", "k1", false));
    cluster.syncPods(pods(pds(), restarting));
    restarting.set(1, running("basic-tikv-1", "k1-new"));
    cluster.syncPods(pods(pds(), restarting));

    List<JournalEntry> entries = since(cluster, seen);
    assertEquals(List.of("store-heartbeat-lost 2", "store-heartbeat-resumed 2"), events(entries));
    assertEquals(List.of(3, 3), entries.stream().map(JournalEntry::upTikvStores).toList());
    assertEquals(List.of(1, 0), entries.stream().map(JournalEntry::stoppedTikvStores).toList());
  }

  @Test
  void evictLeaderBeginAndEndPerStore() {
    SimulatedPdCluster cluster = cluster();
    cluster.syncPods(pods(pds(), tikvs(3)));
    int seen = cluster.journal().size();

    cluster.addEvictLeader(1);
    cluster.addEvictLeader(1);            // already there: nothing changes
    cluster.addEvictLeader(3);
    cluster.removeEvictLeader(1);
    cluster.removeScheduler(SimulatedPdCluster.EVICT_LEADER_SCHEDULER);

    List<JournalEntry> entries = since(cluster, seen);
    assertEquals(List.of("evict-leader-begin 1", "evict-leader-begin 3", "evict-leader-end 1",
        "evict-leader-end 3"), events(entries));
    assertEquals(List.of(List.of(1L), List.of(1L, 3L), List.of(3L), List.of()),
        entries.stream().map(JournalEntry::evictLeaderStores).toList());
    assertEquals("basic-tikv-2", entries.get(1).pod());
  }

  @Test
  void membersLeaderAndReplication() {
    SimulatedPdCluster cluster = cluster();
    cluster.syncPods(pods(pds(), List.of()));
    int seen = cluster.journal().size();

    // The leader's pod stops: it turns unhealthy and the leadership moves, in that order.
    cluster.syncPods(pods(List.of(new PodInstance("basic-pd-0", "p0", false),
        running("basic-pd-1", "p1"), running("basic-pd-2", "p2")), List.of()));
    cluster.transferLeader("basic-pd-2");
    cluster.deleteMemberByName("basic-pd-0");
    cluster.setReplication(SimulatedReplicationConfig.defaults().withMaxReplicas(5));

    List<JournalEntry> entries = since(cluster, seen);
    assertEquals(List.of("member-unhealthy basic-pd-0", "leader-changed basic-pd-1",
        "leader-changed basic-pd-2", "member-deleted basic-pd-0", "replication-changed"),
        events(entries));
    assertEquals(List.of(3, 3, 3, 2, 2), entries.stream().map(JournalEntry::members).toList());
    assertEquals(List.of(2, 2, 2, 2, 2),
        entries.stream().map(JournalEntry::healthyMembers).toList());
    assertEquals(5, entries.get(4).maxReplicas());
    assertEquals(3, entries.get(3).maxReplicas());
  }

  @Test
  void noQuorumMeansNoLeader() {
    SimulatedPdCluster cluster = cluster();
    cluster.syncPods(pods(pds(), List.of()));
    int seen = cluster.journal().size();

    cluster.syncPods(pods(List.of(running("basic-pd-0", "p0")), List.of()));

    List<JournalEntry> entries = since(cluster, seen);
    assertEquals(List.of("member-unhealthy basic-pd-1", "member-unhealthy basic-pd-2",
        "leader-changed"), events(entries));
    assertNull(entries.get(2).member());
    assertNull(entries.get(2).leader());
    assertEquals(1, entries.get(2).healthyMembers());
  }

  @Test
  void readsAndNoOpStepsAddNothing() {
    SimulatedPdCluster cluster = cluster();
    cluster.syncPods(pods(pds(), tikvs(3)));
    int seen = cluster.journal().size();

    cluster.step();
    cluster.step();
    cluster.syncPods(pods(pds(), tikvs(3)));
    cluster.stores();
    cluster.setStoreLabels(1, java.util.Map.of("zone", "a"), false);

    assertTrue(since(cluster, seen).isEmpty());
  }
}
