package io.tidb.operator.pdsim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SimulatedPdClusterTest {

  private static final ClusterKey KEY = new ClusterKey("ns", "basic");
  private final MutableClock clock = new MutableClock(Instant.parse("2025-01-15T08:00:00Z"));

  private SimulatedPdCluster cluster(SimulationSettings settings) {
    return new SimulatedPdCluster(KEY, settings, clock, new Random(7));
  }

  private SimulatedPdCluster cluster() {
    return cluster(SimulationSettings.defaults().withRegionCount(60).withLeaderMovesPerStep(10));
  }

  private SimulatedPdCluster threePdThreeTikv() {
    SimulatedPdCluster cluster = cluster();
    for (int i = 0; i < 3; i++) {
      cluster.addMember("basic-pd-" + i);
    }
    for (int i = 0; i < 3; i++) {
      cluster.addStore("basic-tikv-" + i);
    }
    return cluster;
  }

  private static int leaders(SimulatedPdCluster cluster, long id) {
    return cluster.store(id).orElseThrow().leaderCount();
  }

  private static int totalLeaders(SimulatedPdCluster cluster) {
    return cluster.stores().stream().mapToInt(SimulatedStore::leaderCount).sum();
  }

  @Test
  void firstMemberBecomesLeaderAndFixesClusterId() {
    SimulatedPdCluster cluster = cluster();
    assertEquals(0, cluster.clusterId());
    cluster.addMember("basic-pd-0");
    cluster.addMember("basic-pd-1");

    assertEquals("basic-pd-0", cluster.leader().orElseThrow().name());
    assertTrue(cluster.clusterId() >>> 32 == Instant.parse("2025-01-15T08:00:00Z").getEpochSecond());
    SimulatedMember member = cluster.member("basic-pd-1").orElseThrow();
    assertEquals("http://basic-pd-1.basic-pd-peer.ns.svc:2379", member.clientUrl());
    assertEquals("http://basic-pd-1.basic-pd-peer.ns.svc:2380", member.peerUrl());
  }

  @Test
  void membersAreListedByUnsignedIdAndIdsAboveLongMaxWork() {
    SimulatedPdCluster cluster = cluster();
    long big = Long.parseUnsignedLong("13892733406154627210");
    cluster.addMember("basic-pd-0", big);
    cluster.addMember("basic-pd-1", 3474484975246189105L);

    assertEquals(List.of("basic-pd-1", "basic-pd-0"),
        cluster.members().stream().map(SimulatedMember::name).toList());
    assertTrue(cluster.deleteMemberById(big));
    assertFalse(cluster.deleteMemberById(big));
  }

  @Test
  void leaderNeedsQuorumAndMovesToAHealthyMember() {
    SimulatedPdCluster cluster = cluster();
    cluster.addMember("basic-pd-0");
    cluster.addMember("basic-pd-1");
    cluster.addMember("basic-pd-2");

    cluster.setMemberHealthy("basic-pd-0", false);
    assertTrue(cluster.hasQuorum());
    assertEquals("basic-pd-1", cluster.leader().orElseThrow().name());

    cluster.setMemberHealthy("basic-pd-1", false);
    assertFalse(cluster.hasQuorum());
    assertTrue(cluster.leader().isEmpty());
    assertTrue(cluster.isReachable());

    cluster.setMemberHealthy("basic-pd-0", true);
    assertEquals("basic-pd-0", cluster.leader().orElseThrow().name());
  }

  @Test
  void leaderTransferAndItsErrors() {
    SimulatedPdCluster cluster = cluster();
    cluster.addMember("basic-pd-0");
    cluster.addMember("basic-pd-1");
    cluster.addMember("basic-pd-2");

    cluster.transferLeader("basic-pd-2");
    assertEquals("basic-pd-2", cluster.leader().orElseThrow().name());

    SimulatedPdException unknown =
        assertThrows(SimulatedPdException.class, () -> cluster.transferLeader("nope"));
    assertEquals(500, unknown.status());
    assertEquals("no valid pd to transfer etcd leader", unknown.getMessage());

    cluster.setMemberHealthy("basic-pd-1", false);
    SimulatedPdException down =
        assertThrows(SimulatedPdException.class, () -> cluster.transferLeader("basic-pd-1"));
    assertTrue(down.getMessage().startsWith("[PD:etcd:ErrEtcdMoveLeader]"));
  }

  @Test
  void deletingTheLeaderElectsAnother() {
    SimulatedPdCluster cluster = cluster();
    cluster.addMember("basic-pd-0");
    cluster.addMember("basic-pd-1");
    cluster.addMember("basic-pd-2");

    assertTrue(cluster.deleteMemberByName("basic-pd-0"));
    assertFalse(cluster.deleteMemberByName("basic-pd-0"));
    assertEquals("basic-pd-1", cluster.leader().orElseThrow().name());
    assertEquals(2, cluster.members().size());
  }

  @Test
  void storesJoinOnlyWhenPdHasALeaderAndTheFirstBootstrapsTheCluster() {
    SimulatedPdCluster cluster = cluster();
    assertThrows(IllegalStateException.class, () -> cluster.addStore("basic-tikv-0"));
    cluster.addMember("basic-pd-0");
    assertThrows(IllegalStateException.class, () -> cluster.addTiFlashStore("basic-tiflash-0"));
    assertFalse(cluster.isBootstrapped());

    SimulatedStore first = cluster.addStore("basic-tikv-0");
    assertTrue(cluster.isBootstrapped());
    assertEquals(1, first.id());
    assertEquals("basic-tikv-0.basic-tikv-peer.ns.svc:20160", first.address());
    assertEquals("basic-tikv-0.basic-tikv-peer.ns.svc:20180", first.statusAddress());
    assertEquals(60, first.leaderCount());
    assertEquals(60, first.regionCount());
    assertEquals(NodeState.PREPARING, first.nodeState());

    SimulatedStore flash = cluster.addTiFlashStore("basic-tiflash-0");
    assertEquals(Map.of("engine", "tiflash"), flash.labels());
    assertEquals("basic-tiflash-0.basic-tiflash-peer.ns.svc:3930", flash.address());
    assertThrows(IllegalArgumentException.class, () -> cluster.addStore("basic-tikv-0"));
  }

  @Test
  void stepsPromoteStoresAndBalanceLeaders() {
    SimulatedPdCluster cluster = threePdThreeTikv();
    assertEquals(60, leaders(cluster, 1));
    assertEquals(List.of(60, 60, 60),
        cluster.stores().stream().map(SimulatedStore::regionCount).toList());

    cluster.step();
    assertEquals(NodeState.SERVING, cluster.store(2).orElseThrow().nodeState());
    for (int i = 0; i < 10; i++) {
      cluster.step();
    }
    assertEquals(List.of(20, 20, 20),
        cluster.stores().stream().map(SimulatedStore::leaderCount).toList());
    assertEquals(60, totalLeaders(cluster));
  }

  @Test
  void evictLeaderDrainsLeadersGraduallyAndTheyComeBackAfterRemoval() {
    SimulatedPdCluster cluster = threePdThreeTikv();
    for (int i = 0; i < 10; i++) {
      cluster.step();
    }
    assertTrue(cluster.addEvictLeader(2));
    assertFalse(cluster.addEvictLeader(3));
    assertTrue(cluster.removeEvictLeader(3));
    assertEquals(List.of("balance-region-scheduler", "balance-leader-scheduler",
        "balance-hot-region-scheduler", "evict-slow-store-scheduler", "evict-leader-scheduler"),
        cluster.schedulers());

    cluster.step();
    assertEquals(10, leaders(cluster, 2));
    cluster.step();
    assertEquals(0, leaders(cluster, 2));
    assertEquals(60, totalLeaders(cluster));

    assertTrue(cluster.removeEvictLeader(2));
    assertFalse(cluster.removeEvictLeader(2));
    assertFalse(cluster.schedulers().contains("evict-leader-scheduler"));
    cluster.step();
    assertTrue(leaders(cluster, 2) > 0 && leaders(cluster, 2) <= 10);
    for (int i = 0; i < 5; i++) {
      cluster.step();
    }
    assertEquals(20, leaders(cluster, 2));
  }

  @Test
  void evictLeaderForAnUnknownStoreFailsAndIsWrappedOnceTheSchedulerExists() {
    SimulatedPdCluster cluster = threePdThreeTikv();
    SimulatedPdException first =
        assertThrows(SimulatedPdException.class, () -> cluster.addEvictLeader(99));
    assertEquals("[PD:core:ErrStoreNotFound]store 99 not found", first.getMessage());
    cluster.addEvictLeader(1);
    SimulatedPdException wrapped =
        assertThrows(SimulatedPdException.class, () -> cluster.addEvictLeader(99));
    assertEquals("\"[PD:core:ErrStoreNotFound]store 99 not found\"\n", wrapped.getMessage());
  }

  @Test
  void deletingAStoreNeedsEnoughUpStores() {
    SimulatedPdCluster cluster = threePdThreeTikv();
    SimulatedPdException e =
        assertThrows(SimulatedPdException.class, () -> cluster.deleteStore(3, false));
    assertEquals(400, e.status());
    assertEquals("[PD:core:ErrStoresNotEnough]can not remove store 3 since the number of up "
        + "stores would be 2 while need 3", e.getMessage());
    assertEquals(SimulatedStoreState.UP, cluster.store(3).orElseThrow().state());
  }

  @Test
  void deletedStoreGoesOfflineThenTombstoneAfterDrainSteps() {
    SimulatedPdCluster cluster = threePdThreeTikv();
    cluster.addStore("basic-tikv-3");
    for (int i = 0; i < 10; i++) {
      cluster.step();
    }
    assertTrue(leaders(cluster, 4) > 0);

    cluster.deleteStore(4, false);
    SimulatedStore offline = cluster.store(4).orElseThrow();
    assertEquals(SimulatedStoreState.OFFLINE, offline.state());
    assertEquals(NodeState.REMOVING, offline.nodeState());
    assertEquals("Offline", offline.stateName());
    cluster.deleteStore(4, false);

    cluster.step();
    cluster.step();
    assertEquals(SimulatedStoreState.OFFLINE, cluster.store(4).orElseThrow().state());
    assertTrue(cluster.store(4).orElseThrow().regionCount() < offline.regionCount());
    cluster.step();
    SimulatedStore tombstone = cluster.store(4).orElseThrow();
    assertEquals(SimulatedStoreState.TOMBSTONE, tombstone.state());
    assertEquals(NodeState.REMOVED, tombstone.nodeState());
    assertEquals(0, tombstone.leaderCount());
    assertEquals(0, tombstone.regionCount());
    assertEquals(60, totalLeaders(cluster));

    SimulatedPdException gone =
        assertThrows(SimulatedPdException.class, () -> cluster.deleteStore(4, false));
    assertEquals(410, gone.status());
    assertEquals("[PD:core:ErrStoreRemoved]store 4 has been removed", gone.getMessage());
    assertEquals(404,
        assertThrows(SimulatedPdException.class, () -> cluster.deleteStore(99, false)).status());
  }

  @Test
  void offlineStoreStaysOfflineWhileTooFewStoresCanTakeItsReplicas() {
    SimulatedPdCluster cluster = threePdThreeTikv();
    cluster.deleteStore(3, true);
    for (int i = 0; i < 10; i++) {
      cluster.step();
    }
    SimulatedStore store = cluster.store(3).orElseThrow();
    assertEquals(SimulatedStoreState.OFFLINE, store.state());
    assertTrue(store.physicallyDestroyed());

    SimulatedPdException destroyed =
        assertThrows(SimulatedPdException.class, () -> cluster.deleteStore(3, false));
    assertEquals(400, destroyed.status());
    assertEquals("[PD:core:ErrStoreDestroyed]store 3 has been physically destroyed",
        destroyed.getMessage());
  }

  @Test
  void storeStateUpBringsAnOfflineStoreBack() {
    SimulatedPdCluster cluster = threePdThreeTikv();
    cluster.addStore("basic-tikv-3");
    cluster.setStoreState(4, "offline");
    assertEquals(SimulatedStoreState.OFFLINE, cluster.store(4).orElseThrow().state());
    cluster.setStoreState(4, "Up");
    assertEquals(SimulatedStoreState.UP, cluster.store(4).orElseThrow().state());
    SimulatedPdException invalid =
        assertThrows(SimulatedPdException.class, () -> cluster.setStoreState(4, "Tombstone"));
    assertEquals(400, invalid.status());
    assertEquals("invalid state Tombstone", invalid.getMessage());
  }

  @Test
  void removingAStoreFailsWhenEveryOtherUpStoreIsEvicted() {
    SimulatedPdCluster cluster = threePdThreeTikv();
    cluster.addStore("basic-tikv-3");
    cluster.setReplication(cluster.replication().withMaxReplicas(1));
    cluster.addEvictLeader(1);
    cluster.addEvictLeader(2);
    cluster.addEvictLeader(3);
    SimulatedPdException e =
        assertThrows(SimulatedPdException.class, () -> cluster.deleteStore(4, false));
    assertEquals("[PD:core:ErrNoStoreForRegionLeader]can not remove store 4 since there are "
        + "no extra up store to store the leader", e.getMessage());
  }

  @Test
  void storesWithoutHeartbeatShowDisconnectedThenDownAndLoseLeaders() {
    SimulatedPdCluster cluster = threePdThreeTikv();
    for (int i = 0; i < 10; i++) {
      cluster.step();
    }
    cluster.setStoreHeartbeating(1, false);
    clock.advance(Duration.ofSeconds(21));
    assertEquals("Disconnected", cluster.store(1).orElseThrow().stateName());
    assertEquals(SimulatedStoreState.UP, cluster.store(1).orElseThrow().state());
    clock.advance(Duration.ofMinutes(30));
    assertEquals("Down", cluster.store(1).orElseThrow().stateName());
    cluster.step();
    cluster.step();
    assertEquals(0, leaders(cluster, 1));

    cluster.setStoreHeartbeating(1, true);
    assertEquals("Up", cluster.store(1).orElseThrow().stateName());
  }

  @Test
  void labelsMergeCaseInsensitivelyOrAreReplacedWithForce() {
    SimulatedPdCluster cluster = threePdThreeTikv();
    cluster.setStoreLabels(1, Map.of("zone", "z1"), false);
    cluster.setStoreLabels(1, Map.of("ZONE", "z2", "host", "h1"), false);
    assertEquals(Map.of("zone", "z2", "host", "h1"), cluster.store(1).orElseThrow().labels());
    cluster.setStoreLabels(1, Map.of("rack", "r1"), true);
    assertEquals(Map.of("rack", "r1"), cluster.store(1).orElseThrow().labels());
    SimulatedPdException e = assertThrows(SimulatedPdException.class,
        () -> cluster.setStoreLabels(99, Map.of("a", "b"), false));
    assertEquals(500, e.status());
    assertEquals("[PD:cluster:ErrInvalidStoreID]invalid store id 99, not found", e.getMessage());
  }

  @Test
  void replicationUpdateChecksBootstrapAndIsolationLevel() {
    SimulatedPdCluster cluster = cluster();
    cluster.addMember("basic-pd-0");
    assertEquals(500, assertThrows(SimulatedPdException.class,
        () -> cluster.updateReplication(cluster.replication().withMaxReplicas(1))).status());
    cluster.addStore("basic-tikv-0");
    cluster.updateReplication(cluster.replication().withLocationLabels(List.of("zone", "host")));
    assertEquals(List.of("zone", "host"), cluster.replication().locationLabels());
    SimulatedReplicationConfig bad = new SimulatedReplicationConfig(3, List.of("zone"), false, true, false, "rack");
    assertEquals("isolation-level must be one of location-labels or empty",
        assertThrows(SimulatedPdException.class, () -> cluster.updateReplication(bad))
            .getMessage());
  }

  @Test
  void operationsBeforeBootstrapAnswerNotBootstrapped() {
    SimulatedPdCluster cluster = cluster();
    cluster.addMember("basic-pd-0");
    SimulatedPdException e =
        assertThrows(SimulatedPdException.class, () -> cluster.deleteStore(1, false));
    assertEquals(500, e.status());
    assertTrue(e.getMessage().endsWith("TiKV cluster not bootstrapped, please start TiKV first"));
    assertThrows(SimulatedPdException.class, () -> cluster.addEvictLeader(1));
  }

  // ---------------------------------------------------------------- pods

  private static PodInstance running(String name, String uid) {
    return new PodInstance(name, uid, true);
  }

  private static ClusterPods pods(List<PodInstance> pd, List<PodInstance> tikv) {
    return new ClusterPods(pd, tikv, List.of(), List.of());
  }

  @Test
  void podsBecomeMembersAndStoresOnceThereIsALeader() {
    SimulatedPdCluster cluster = cluster();
    cluster.syncPods(pods(
        List.of(new PodInstance("basic-pd-0", "u0", false)),
        List.of(running("basic-tikv-0", "k0"))));
    assertTrue(cluster.members().isEmpty());
    assertTrue(cluster.stores().isEmpty());

    cluster.syncPods(pods(
        List.of(running("basic-pd-0", "u0"), running("basic-pd-1", "u1")),
        List.of(running("basic-tikv-0", "k0"))));
    assertEquals(2, cluster.members().size());
    assertEquals("basic-pd-0", cluster.leader().orElseThrow().name());
    assertEquals("basic-tikv-0", cluster.stores().get(0).podName());
    assertTrue(cluster.isBootstrapped());
  }

  @Test
  void aPdPodBeingDeletedDoesNotJoin() {
    SimulatedPdCluster cluster = cluster();
    List<PodInstance> two = List.of(running("basic-pd-0", "u0"), running("basic-pd-1", "u1"));
    cluster.syncPods(pods(two, List.of()));
    cluster.syncPods(pods(List.of(two.get(0), two.get(1),
        new PodInstance("basic-pd-2", "u2", true, true)), List.of()));
    assertTrue(cluster.member("basic-pd-2").isEmpty(), "a scale-in deleted it before it joined");
  }

  @Test
  void stoppedPdPodMakesItsMemberUnhealthyButKeepsIt() {
    SimulatedPdCluster cluster = cluster();
    cluster.syncPods(pods(List.of(running("basic-pd-0", "u0"), running("basic-pd-1", "u1"),
        running("basic-pd-2", "u2")), List.of()));
    cluster.syncPods(pods(List.of(running("basic-pd-1", "u1"), running("basic-pd-2", "u2")),
        List.of()));
    assertFalse(cluster.member("basic-pd-0").orElseThrow().healthy());
    assertEquals("basic-pd-1", cluster.leader().orElseThrow().name());
  }

  @Test
  void deletedMemberStaysDeletedWhileItsPodRunsAndANewPodJoinsAgain() {
    SimulatedPdCluster cluster = cluster();
    List<PodInstance> three = List.of(running("basic-pd-0", "u0"), running("basic-pd-1", "u1"),
        running("basic-pd-2", "u2"));
    cluster.syncPods(pods(three, List.of()));
    long oldId = cluster.member("basic-pd-2").orElseThrow().memberId();
    assertTrue(cluster.deleteMemberByName("basic-pd-2"));

    cluster.syncPods(pods(three, List.of()));
    assertTrue(cluster.member("basic-pd-2").isEmpty());

    cluster.syncPods(pods(List.of(running("basic-pd-0", "u0"), running("basic-pd-1", "u1"),
        running("basic-pd-2", "u2-new")), List.of()));
    SimulatedMember rejoined = cluster.member("basic-pd-2").orElseThrow();
    assertTrue(rejoined.healthy());
    assertTrue(rejoined.memberId() != oldId);
  }

  @Test
  void offlineStoreBecomesTombstoneWhenItsPodDisappears() {
    SimulatedPdCluster cluster = cluster();
    List<PodInstance> pd = List.of(running("basic-pd-0", "u0"));
    List<PodInstance> tikv = List.of(running("basic-tikv-0", "k0"), running("basic-tikv-1", "k1"),
        running("basic-tikv-2", "k2"), running("basic-tikv-3", "k3"));
    cluster.syncPods(pods(pd, tikv));
    assertEquals(4, cluster.stores().size());
    long id = cluster.storeOfPod("basic-tikv-3").orElseThrow().id();
    cluster.deleteStore(id, false);

    cluster.syncPods(pods(pd, tikv.subList(0, 3)));
    assertEquals(SimulatedStoreState.TOMBSTONE, cluster.store(id).orElseThrow().state());
  }

  @Test
  void tombstoneStoreOfARunningPodDoesNotRejoinButANewPodGetsANewStore() {
    SimulatedPdCluster cluster = cluster(SimulationSettings.defaults().withDrainSteps(1));
    List<PodInstance> pd = List.of(running("basic-pd-0", "u0"));
    List<PodInstance> tikv = List.of(running("basic-tikv-0", "k0"), running("basic-tikv-1", "k1"),
        running("basic-tikv-2", "k2"), running("basic-tikv-3", "k3"));
    cluster.syncPods(pods(pd, tikv));
    cluster.deleteStore(4, false);
    cluster.step();
    assertEquals(SimulatedStoreState.TOMBSTONE, cluster.store(4).orElseThrow().state());

    cluster.syncPods(pods(pd, tikv));
    assertEquals(4, cluster.stores().size());

    cluster.syncPods(pods(pd, List.of(running("basic-tikv-0", "k0"),
        running("basic-tikv-1", "k1"), running("basic-tikv-2", "k2"),
        running("basic-tikv-3", "k3-new"))));
    assertEquals(5, cluster.storeOfPod("basic-tikv-3").orElseThrow().id());
  }

  @Test
  void stoppedTikvPodStopsHeartbeatingAndRestartKeepsTheStore() {
    SimulatedPdCluster cluster = cluster();
    List<PodInstance> pd = List.of(running("basic-pd-0", "u0"));
    cluster.syncPods(pods(pd, List.of(running("basic-tikv-0", "k0"))));
    cluster.syncPods(pods(pd, List.of(new PodInstance("basic-tikv-0", "k0", false))));
    assertFalse(cluster.store(1).orElseThrow().heartbeating());
    cluster.syncPods(pods(pd, List.of(running("basic-tikv-0", "k0-restarted"))));
    assertTrue(cluster.store(1).orElseThrow().heartbeating());
    assertEquals(1, cluster.stores().size());
  }
}
