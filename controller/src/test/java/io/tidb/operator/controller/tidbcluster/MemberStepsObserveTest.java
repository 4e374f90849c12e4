package io.tidb.operator.controller.tidbcluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder;
import io.tidb.operator.api.v1alpha1.cluster.PdSpec;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.cluster.TidbClusterSpec;
import io.tidb.operator.api.v1alpha1.cluster.TidbClusterStatus;
import io.tidb.operator.api.v1alpha1.cluster.TidbSpec;
import io.tidb.operator.api.v1alpha1.cluster.TikvSpec;
import io.tidb.operator.controller.fixtures.ClusterContexts;
import io.tidb.operator.controller.fixtures.FakeClusterApi;
import io.tidb.operator.controller.fixtures.FakeOwnedObjects;
import io.tidb.operator.controller.tidbcluster.pd.PdStep;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterAddresses;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterApi.StoreView;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterApi;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterContext;
import io.tidb.operator.controller.tidbcluster.pipeline.Prerequisite;
import io.tidb.operator.controller.tidbcluster.tidb.TidbStep;
import io.tidb.operator.controller.tidbcluster.tikv.TikvStep;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class MemberStepsObserveTest {

  private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

  static TidbCluster cluster() {
    TidbCluster tc = new TidbCluster();
    tc.setMetadata(
        new ObjectMetaBuilder().withName("basic").withNamespace("db").withGeneration(4L).build());
    TidbClusterSpec spec = new TidbClusterSpec();
    PdSpec pd = new PdSpec();
    pd.setReplicas(3);
    spec.setPd(pd);
    TikvSpec tikv = new TikvSpec();
    tikv.setReplicas(3);
    spec.setTikv(tikv);
    TidbSpec tidb = new TidbSpec();
    tidb.setReplicas(2);
    spec.setTidb(tidb);
    tc.setSpec(spec);
    return tc;
  }

  static StatefulSet sts(String name, String container, String image, int replicas) {
    return new StatefulSetBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace("db")
        .withGeneration(1L)
        .endMetadata()
        .withNewSpec()
        .withReplicas(replicas)
        .withNewTemplate()
        .withNewSpec()
        .addNewContainer()
        .withName(container)
        .withImage(image)
        .endContainer()
        .endSpec()
        .endTemplate()
        .endSpec()
        .withNewStatus()
        .withReplicas(replicas)
        .withReadyReplicas(replicas)
        .withObservedGeneration(1L)
        .withCurrentRevision("r1")
        .withUpdateRevision("r1")
        .endStatus()
        .build();
  }

  private static ClusterContext context(FakeOwnedObjects owned, FakeClusterApi api) {
    return ClusterContexts.observing(cluster(), owned, api);
  }

  @Test
  void pdObservesMembersLeaderClusterIdAndStatefulSet() throws Exception {
    FakeOwnedObjects owned = new FakeOwnedObjects().add(sts("basic-pd", "pd", "pingcap/pd:v8.5.7", 3));
    ClusterContext ctx = context(owned, new FakeClusterApi());
    new PdStep().observe(ctx);
    TidbClusterStatus s = ctx.status();
    assertEquals(3, s.getPd().getMembers().size());
    assertEquals("basic-pd-0", s.getPd().getLeader().getName());
    assertEquals("7372843513410154713", s.getClusterID());
    assertTrue(s.getPd().getSynced());
    assertEquals("Normal", s.getPd().getPhase());
    assertEquals("pingcap/pd:v8.5.7", s.getPd().getImage());
    assertEquals(3, s.getPd().getStatefulSet().getReadyReplicas());
    assertEquals(3, ctx.observed(ClusterAddresses.PD).orElseThrow().desiredReplicas());
  }

  @Test
  void pdReachableSaysWhenPdIsReadThroughAPeerMember() throws Exception {
    FakeClusterApi api = new FakeClusterApi();
    ClusterContext ctx = context(new FakeOwnedObjects().add(sts("basic-pd", "pd", "i", 3)), api);
    new PdStep().observe(ctx);
    assertEquals("the operator reads PD's members and stores", reachableMessage(ctx));
    api.readThrough = Optional.of("PD member other-pd-0 of status.pd.peerMembers at http://x");
    new PdStep().observe(ctx);
    assertEquals("the operator reads PD's members and stores through PD member other-pd-0 of"
        + " status.pd.peerMembers at http://x", reachableMessage(ctx));
  }

  private static String reachableMessage(ClusterContext ctx) {
    return ctx.status().getConditions().stream()
        .filter(c -> PdStep.REACHABLE_CONDITION.equals(c.getType()))
        .findFirst().orElseThrow().getMessage();
  }

  @Test
  void unreachablePdIsUnsyncedNotAnError() throws Exception {
    FakeClusterApi endpoints = new FakeClusterApi();
    endpoints.reachable = false;
    ClusterContext ctx = context(new FakeOwnedObjects().add(sts("basic-pd", "pd", "i", 3)), endpoints);
    new PdStep().observe(ctx);
    assertFalse(ctx.status().getPd().getSynced());
    assertNull(ctx.status().getPd().getMembers());
  }

  @Test
  void tikvWaitsForPdQuorum() throws Exception {
    FakeClusterApi endpoints = new FakeClusterApi();
    endpoints.healthyPd = 1;
    ClusterContext ctx = context(new FakeOwnedObjects().add(sts("basic-pd", "pd", "i", 3)), endpoints);
    new PdStep().observe(ctx);
    assertTrue(new TikvStep(new PdStep().quorum()).waitingFor(ctx).orElseThrow().contains("PD"));

    endpoints.healthyPd = 2;
    ClusterContext healthy = context(new FakeOwnedObjects().add(sts("basic-pd", "pd", "i", 3)), endpoints);
    new PdStep().observe(healthy);
    assertTrue(new TikvStep(new PdStep().quorum()).waitingFor(healthy).isEmpty());
  }

  @Test
  void tikvRecordsStoresAndTidbWaitsForOneUp() throws Exception {
    FakeClusterApi endpoints = new FakeClusterApi();
    ClusterContext ctx = context(new FakeOwnedObjects().add(sts("basic-tikv", "tikv", "i", 3)), endpoints);
    new TikvStep(new PdStep().quorum()).observe(ctx);
    assertFalse(ctx.status().getTikv().getBootStrapped());
    TidbStep tidb = new TidbStep(new TikvStep(Prerequisite.NONE).anyStoreUp());
    assertTrue(tidb.waitingFor(ctx).orElseThrow().contains("TiKV"));

    endpoints.stores =
        Optional.of(
            new ClusterApi.Stores(
                List.of(new StoreView("1", "basic-tikv-0.basic-tikv-peer.db.svc:20160", "Up", 5)),
                List.of()));
    new TikvStep(new PdStep().quorum()).observe(ctx);
    assertTrue(ctx.status().getTikv().getBootStrapped());
    assertEquals(1, ctx.status().getTikv().getStores().size());
    assertEquals("Normal", ctx.status().getTikv().getPhase());
    assertTrue(tidb.waitingFor(ctx).isEmpty());
  }

  @Test
  void tidbProbesEachExistingPod() throws Exception {
    FakeClusterApi endpoints = new FakeClusterApi();
    endpoints.healthyTidb = Set.of("basic-tidb-0", "basic-tidb-1");
    FakeOwnedObjects owned =
        new FakeOwnedObjects()
            .add(sts("basic-tidb", "tidb", "pingcap/tidb:v8.5.7", 2))
            .add(
                new PodBuilder()
                    .withNewMetadata()
                    .withName("basic-tidb-0")
                    .endMetadata()
                    .withNewSpec()
                    .withNodeName("kwok-node-0")
                    .endSpec()
                    .build());
    ClusterContext ctx = context(owned, endpoints);
    new TidbStep(new TikvStep(Prerequisite.NONE).anyStoreUp()).observe(ctx);
    var members = ctx.status().getTidb().getMembers();
    assertTrue(members.get("basic-tidb-0").getHealth());
    assertEquals("kwok-node-0", members.get("basic-tidb-0").getNode());
    assertFalse(members.get("basic-tidb-1").getHealth(), "no pod yet, so not probed");
  }
}
