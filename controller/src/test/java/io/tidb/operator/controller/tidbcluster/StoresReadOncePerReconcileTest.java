package io.tidb.operator.controller.tidbcluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.controller.config.ComponentUrls;
import io.tidb.operator.controller.fixtures.TestClusters;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterApi;
import io.tidb.operator.pdsim.ClusterKey;
import io.tidb.operator.pdsim.PdSimulatorServer;
import io.tidb.operator.pdsim.SimulatedClusters;
import io.tidb.operator.pdsim.SimulatedPdCluster;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 19: a reconcile reads PD's stores once (every component step asks), and its members once
 * (the leader and the cluster id), and again only after it wrote to PD; a new reconcile reads
 * them afresh.
 */
class StoresReadOncePerReconcileTest {

  private PdSimulatorServer sim;
  private SimulatedPdCluster pd;
  private ClusterApiFactory factory;
  private TidbCluster tc;

  @BeforeEach
  void start() throws Exception {
    sim = PdSimulatorServer.start(new SimulatedClusters());
    tc = TestClusters.load("basic");
    tc.getMetadata().setNamespace("ns");
    pd = sim.pd(new ClusterKey("ns", tc.getMetadata().getName()));
    pd.addMember(tc.getMetadata().getName() + "-pd-0");
    pd.addStore(tc.getMetadata().getName() + "-tikv-0");
    pd.addStore(tc.getMetadata().getName() + "-tikv-1");
    factory = new ClusterApiFactory(
        new ComponentUrls(sim.pdUrlTemplate(), sim.tidbStatusUrlTemplate(),
            sim.pdMemberUrlTemplate(), Duration.ofSeconds(2)),
        (ns, name) -> Optional.empty(), Clock.systemUTC());
  }

  @AfterEach
  void stop() {
    sim.close();
  }

  private long storeReads() {
    return sim.calls().stream().filter(c -> c.path().equals("/pd/api/v1/stores")).count();
  }

  @Test
  void storesAreReadOncePerReconcileUntilAWrite() throws Exception {
    ClusterApi reconcile = factory.forCluster(tc);
    assertEquals(2, reconcile.stores().orElseThrow().live().size());
    assertEquals(2, reconcile.stores().orElseThrow().live().size());
    assertEquals(1, storeReads(), "one read lists live and Tombstone stores");

    String id = reconcile.stores().orElseThrow().live().get(0).id();
    reconcile.beginEvictLeader(id);
    reconcile.stores();
    assertEquals(2, storeReads(), "read again after a write to PD");

    factory.forCluster(tc).stores();
    assertEquals(3, storeReads(), "the next reconcile reads PD afresh");
  }

  @Test
  void oneReadSplitsLiveFromTombstoneStores() throws Exception {
    String name = tc.getMetadata().getName();
    pd.addStore(name + "-tikv-2");
    pd.addStore(name + "-tikv-3");
    long removed = pd.storeOfPod(name + "-tikv-3").orElseThrow().id();
    pd.deleteStore(removed, false);
    while (!"Tombstone".equals(pd.store(removed).orElseThrow().stateName())) {
      pd.step();
    }
    ClusterApi.Stores stores = factory.forCluster(tc).stores().orElseThrow();
    assertEquals(List.of(name + "-tikv-0", name + "-tikv-1", name + "-tikv-2"),
        stores.live().stream().map(v -> v.address().substring(0, v.address().indexOf('.'))).toList());
    assertEquals(List.of(Long.toString(removed)), stores.tombstones().stream().map(ClusterApi.StoreView::id).toList());
    assertEquals(1, storeReads());
  }

  private long reads(String path) {
    return sim.calls().stream().filter(c -> c.path().equals(path)).count();
  }

  @Test
  void theLeaderAndTheClusterIdComeFromOneReadOfTheMembers() throws Exception {
    ClusterApi reconcile = factory.forCluster(tc);
    assertEquals(Optional.of(tc.getMetadata().getName() + "-pd-0"), reconcile.pdLeader());
    assertEquals(Long.toUnsignedString(pd.clusterId()), reconcile.clusterId());
    assertEquals(1, reads("/pd/api/v1/members"));
    assertEquals(0, reads("/pd/api/v1/leader") + reads("/pd/api/v1/cluster"));

    pd.addMember(tc.getMetadata().getName() + "-pd-1");
    reconcile.transferPdLeader(tc.getMetadata().getName() + "-pd-1");
    assertEquals(Optional.of(tc.getMetadata().getName() + "-pd-1"), reconcile.pdLeader(),
        "read again after a write to PD");
    assertEquals(2, reads("/pd/api/v1/members"));
  }
}
