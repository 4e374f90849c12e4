package io.tidb.operator.controller.tidbcluster.tiproxy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.cluster.TidbClusterStatus;
import io.tidb.operator.api.v1alpha1.cluster.TiproxySpec;
import io.tidb.operator.controller.fixtures.ClusterContexts;
import io.tidb.operator.controller.fixtures.FakeApplier;
import io.tidb.operator.controller.fixtures.FakeClusterApi;
import io.tidb.operator.controller.fixtures.FakeOwnedObjects;
import io.tidb.operator.controller.fixtures.FakeVolumeClaims;
import io.tidb.operator.controller.fixtures.RecordingEventRecorder;
import io.tidb.operator.controller.fixtures.TestClusters;
import io.tidb.operator.controller.runtime.ResourceContext;
import io.tidb.operator.controller.tidbcluster.member.StatefulSetPlan;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterContext;
import io.tidb.operator.controller.tidbcluster.pipeline.Deletions;
import io.tidb.operator.controller.tidbcluster.pipeline.NodeLabels;
import io.tidb.operator.controller.tidbcluster.pipeline.Prerequisite;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** Which TiProxy servers are told which labels in one reconcile (upstream's setLabelsForTiProxy). */
class TiproxyStepLabelsTest {

  private final TiproxyStep step = new TiproxyStep(Prerequisite.NONE);
  private final FakeClusterApi api = new FakeClusterApi();
  private final NodeLabels nodes = name -> Optional.ofNullable(Map.of(
      "node-a", Map.of("topology.kubernetes.io/zone", "za", "kubernetes.io/hostname", "node-a"),
      "node-b", Map.of("topology.kubernetes.io/zone", "zb", "kubernetes.io/hostname", "node-b"))
      .get(name));

  private static TidbCluster proxy(String version) {
    TidbCluster tc = TestClusters.load("basic");
    tc.getSpec().setTiproxy(ApiObjects.parse("""
        baseImage: pingcap/tiproxy
        replicas: 3
        """, TiproxySpec.class));
    tc.getSpec().getTiproxy().setVersion(version);
    return tc;
  }

  /** The StatefulSet and three pods: 0 on node-a, 1 on node-b, 2 not scheduled. */
  private static FakeOwnedObjects owned(TidbCluster tc) {
    StatefulSet sts = TiproxyObjects.statefulSet(tc,
        TiproxyObjects.configMap(tc, Optional.empty()), StatefulSetPlan.holding(3));
    FakeOwnedObjects owned = new FakeOwnedObjects().add(sts);
    List<String> nodeOf = java.util.Arrays.asList("node-a", "node-b", null);
    for (int i = 0; i < 3; i++) {
      owned.add(new PodBuilder().withNewMetadata().withName("basic-tiproxy-" + i)
          .withUid("uid-" + i).endMetadata()
          .withNewSpec().withNodeName(nodeOf.get(i)).endSpec().build());
    }
    return owned;
  }

  private List<String> reconcile(TidbCluster tc, List<String> locationLabels, Set<String> healthy)
      throws Exception {
    api.locationLabels = locationLabels;
    api.healthyTiproxy = new TreeSet<>(healthy);
    api.tiproxyLabelCalls.clear();
    ClusterContext ctx = new ClusterContext(
        new ResourceContext<>(tc, tc, new TidbClusterStatus(), owned(tc), new FakeApplier(),
            new RecordingEventRecorder(), ClusterContexts.NOW),
        api, new FakeVolumeClaims(), Deletions.NONE, nodes);
    step.observe(ctx);
    step.apply(ctx);
    return List.copyOf(api.tiproxyLabelCalls);
  }

  @Test
  void eachHealthyScheduledTiproxyGetsItsNodesLocationLabelsAndZone() throws Exception {
    assertEquals(List.of(
            "basic-tiproxy-0 {host=node-a, topology.kubernetes.io/zone=za, zone=za}",
            "basic-tiproxy-1 {host=node-b, topology.kubernetes.io/zone=zb, zone=zb}"),
        reconcile(proxy("v1.3.0"), List.of("topology.kubernetes.io/zone", "host"),
            Set.of("basic-tiproxy-0", "basic-tiproxy-1", "basic-tiproxy-2")),
        "basic-tiproxy-2 has no node yet");
  }

  @Test
  void anUnhealthyTiproxyIsLeftAlone() throws Exception {
    assertEquals(List.of("basic-tiproxy-1 {host=node-b, zone=zb}"),
        reconcile(proxy("v1.3.0"), List.of("zone", "host"), Set.of("basic-tiproxy-1")));
  }

  @Test
  void nothingWithoutAZoneLocationLabelOrBeforeTiproxy110() throws Exception {
    assertEquals(List.of(), reconcile(proxy("v1.3.0"), List.of("rack", "host"),
        Set.of("basic-tiproxy-0")));
    assertEquals(List.of(), reconcile(proxy("v1.0.0"), List.of("zone"),
        Set.of("basic-tiproxy-0")));
    assertEquals(List.of(), reconcile(proxy("nightly"), List.of("zone"),
        Set.of("basic-tiproxy-0")));
  }
}
