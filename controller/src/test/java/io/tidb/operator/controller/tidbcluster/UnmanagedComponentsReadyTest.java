package io.tidb.operator.controller.tidbcluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.cluster.TidbClusterSpec;
import io.tidb.operator.api.v1alpha1.cluster.TidbClusterStatus;
import io.tidb.operator.controller.fixtures.ClusterContexts;
import io.tidb.operator.controller.fixtures.FakeApplier;
import io.tidb.operator.controller.fixtures.FakeClusterApi;
import io.tidb.operator.controller.fixtures.FakeOwnedObjects;
import io.tidb.operator.controller.fixtures.FakeVolumeClaims;
import io.tidb.operator.controller.fixtures.RecordingEventRecorder;
import io.tidb.operator.controller.runtime.ResourceContext;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterPipeline;
import io.tidb.operator.controller.tidbcluster.pipeline.ReadyCondition;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A stored cluster naming a component the operator does not run is never {@code Ready}: before
 * this rule a cluster asking only for TiProxy (then unmanaged) ran no step at all and was reported Ready.
 */
class UnmanagedComponentsReadyTest {

  private final RecordingEventRecorder events = new RecordingEventRecorder();

  private static TidbCluster onlyTici() {
    TidbCluster tc = new TidbCluster();
    tc.setMetadata(
        new ObjectMetaBuilder().withName("proxy").withNamespace("db").withGeneration(3L).build());
    tc.setSpec(new TidbClusterSpec());
    var tici = JsonNodeFactory.instance.objectNode();
    tici.putObject("meta").put("replicas", 1);
    tc.getSpec().setTici(tici);
    return tc;
  }

  private Condition run(TidbCluster tc, TidbClusterStatus status) throws Exception {
    TidbClusterWork work =
        new TidbClusterWork(
            new ClusterPipeline(ClusterComponents.upstreamOrder("operator:test")),
            c -> new FakeClusterApi(),
            (ns, cache) -> new FakeVolumeClaims());
    work.work(
        new ResourceContext<>(
            tc, tc, status, new FakeOwnedObjects(), new FakeApplier(), events, ClusterContexts.NOW));
    return status.getConditions().stream()
        .filter(c -> ReadyCondition.TYPE.equals(c.getType()))
        .findFirst()
        .orElseThrow();
  }

  @Test
  void anUnmanagedComponentHoldsReadyFalseWithTheFieldToRemoveAndWarnsOnce() throws Exception {
    TidbCluster tc = onlyTici();
    TidbClusterStatus status = new TidbClusterStatus();
    Condition ready = run(tc, status);
    assertEquals("False", ready.getStatus());
    assertEquals("ComponentNotManaged", ready.getReason());
    assertEquals(
        "spec.tici: Forbidden: TiCI is not managed by this operator (upstream marks it experimental"
            + " and it needs an external object store and TiCDC); remove spec.tici",
        ready.getMessage());
    assertEquals(List.of("ComponentNotManaged"), events.reasons());

    run(tc, status);
    assertEquals(List.of("ComponentNotManaged"), events.reasons(), "the same message warns once");
  }

  @Test
  void removingTheComponentLetsTheClusterBeJudgedOnItsComponentsAgain() throws Exception {
    TidbCluster tc = onlyTici();
    TidbClusterStatus status = new TidbClusterStatus();
    run(tc, status);
    tc.getSpec().setTici(null);
    Condition ready = run(tc, status);
    assertEquals("True", ready.getStatus(), "no component asked for, none missing");
  }
}
