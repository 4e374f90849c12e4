package io.tidb.operator.dmsim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tidb.operator.pdsim.ClusterKey;
import io.tidb.operator.pdsim.PodInstance;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SimulatedDmClusterTest {

  private final SimulatedDmCluster dm = new SimulatedDmCluster(new ClusterKey("ns", "dc"));

  private static PodInstance up(String name) {
    return new PodInstance(name, name + "-uid", true);
  }

  private static PodInstance down(String name) {
    return new PodInstance(name, name + "-uid", false);
  }

  private static final List<PodInstance> THREE =
      List.of(up("dc-dm-master-0"), up("dc-dm-master-1"), up("dc-dm-master-2"));

  private List<String> stages() {
    return dm.workers().stream().map(w -> w.name() + "=" + w.stage() + ":" + w.source()).toList();
  }

  @Test
  void runningPodsJoinAndTheLowestNameLeads() {
    dm.syncPods(THREE, List.of());
    assertEquals(List.of("dc-dm-master-0", "dc-dm-master-1", "dc-dm-master-2"),
        dm.masters().stream().map(SimulatedDmCluster.Master::name).toList());
    assertEquals(Optional.of("dc-dm-master-0"), dm.leader());
    assertEquals("http://dc-dm-master-1.dc-dm-master-peer.ns.svc:8261", dm.masters().get(1).clientUrl());
    assertEquals(3, dm.masters().stream().map(SimulatedDmCluster.Master::memberId).distinct().count());
  }

  @Test
  void withoutQuorumThereIsNoLeaderAndClusterCallsAreRefused() {
    dm.syncPods(THREE, List.of());
    dm.syncPods(List.of(up("dc-dm-master-0"), down("dc-dm-master-1"), down("dc-dm-master-2")), List.of());
    assertEquals(Optional.empty(), dm.leader());
    assertThrows(SimulatedDmCluster.RefusedException.class, () -> dm.deleteMaster("dc-dm-master-2"));
  }

  @Test
  void aDeadLeaderIsReplacedWhileTheQuorumHolds() {
    dm.syncPods(THREE, List.of());
    dm.syncPods(List.of(down("dc-dm-master-0"), up("dc-dm-master-1"), up("dc-dm-master-2")), List.of());
    assertEquals(Optional.of("dc-dm-master-1"), dm.leader());
    assertFalse(dm.masters().get(0).alive());
  }

  @Test
  void anEvictedMemberResignsAndStopsCampaigningUntilItRestarts() {
    dm.syncPods(THREE, List.of());
    dm.evictLeader("dc-dm-master-0");
    assertEquals(Optional.of("dc-dm-master-1"), dm.leader());
    dm.evictLeader("dc-dm-master-1");
    assertEquals(Optional.of("dc-dm-master-2"), dm.leader());
    dm.syncPods(List.of(new PodInstance("dc-dm-master-0", "new-uid", true), up("dc-dm-master-1"),
        down("dc-dm-master-2")), List.of());
    assertEquals(Optional.of("dc-dm-master-0"), dm.leader(), "the restarted member campaigns again");
  }

  @Test
  void aDeletedMemberIsGoneAndItsPodDoesNotRejoin() {
    dm.syncPods(THREE, List.of());
    dm.deleteMaster("dc-dm-master-2");
    dm.syncPods(THREE, List.of());
    assertEquals(2, dm.masters().size());
    assertThrows(SimulatedDmCluster.RefusedException.class, () -> dm.deleteMaster("dc-dm-master-2"));
    dm.syncPods(List.of(up("dc-dm-master-0"), up("dc-dm-master-1"),
        new PodInstance("dc-dm-master-2", "scaled-out-again", true)), List.of());
    assertEquals(3, dm.masters().size());
  }

  @Test
  void workersRegisterFreeGetSourcesGoOfflineAndOnlyOfflineOnesCanBeDeleted() {
    dm.syncPods(THREE, List.of(up("dc-dm-worker-0"), up("dc-dm-worker-1")));
    assertEquals(List.of("dc-dm-worker-0=free:", "dc-dm-worker-1=free:"), stages());
    dm.addSource("mysql-1");
    assertEquals(List.of("dc-dm-worker-0=bound:mysql-1", "dc-dm-worker-1=free:"), stages());
    SimulatedDmCluster.RefusedException online =
        assertThrows(SimulatedDmCluster.RefusedException.class, () -> dm.deleteWorker("dc-dm-worker-1"));
    assertTrue(online.getMessage().contains("still online"), online.getMessage());
    dm.syncPods(THREE, List.of(up("dc-dm-worker-1")));
    assertEquals(List.of("dc-dm-worker-0=offline:", "dc-dm-worker-1=bound:mysql-1"), stages(),
        "the source moves to the free worker");
    dm.deleteWorker("dc-dm-worker-0");
    assertEquals(List.of("dc-dm-worker-1=bound:mysql-1"), stages());
  }

  @Test
  void testHooksElectALeaderAndReleaseASource() {
    dm.syncPods(THREE, List.of(up("dc-dm-worker-0")));
    dm.electLeader("dc-dm-master-2");
    assertEquals(Optional.of("dc-dm-master-2"), dm.leader());
    dm.addSource("s1");
    dm.removeSource("s1");
    assertEquals(List.of("dc-dm-worker-0=free:"), stages());
  }

  @Test
  void aHungMemberIsNotAliveUntilItsPodIsReplaced() {
    dm.syncPods(THREE, List.of());
    dm.hang("dc-dm-master-0", true);
    assertFalse(dm.alive("dc-dm-master-0"));
    assertEquals(Optional.of("dc-dm-master-1"), dm.leader());
    dm.syncPods(THREE, List.of());
    assertFalse(dm.alive("dc-dm-master-0"), "its pod still runs, the process still hangs");
    dm.syncPods(List.of(new PodInstance("dc-dm-master-0", "replaced", true), up("dc-dm-master-1"),
        up("dc-dm-master-2")), List.of());
    assertTrue(dm.alive("dc-dm-master-0"));
  }
}
