package io.tidb.operator.controller.tidbcluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.cluster.TidbClusterSpec;
import io.tidb.operator.api.v1alpha1.cluster.TidbClusterStatus;
import io.tidb.operator.controller.fixtures.ClusterContexts;
import io.tidb.operator.controller.fixtures.FakeApplier;
import io.tidb.operator.controller.fixtures.FakeClusterApi;
import io.tidb.operator.controller.fixtures.FakeVolumeClaims;
import io.tidb.operator.controller.fixtures.FakeOwnedObjects;
import io.tidb.operator.controller.fixtures.RecordingEventRecorder;
import io.tidb.operator.controller.runtime.ResourceContext;
import io.tidb.operator.controller.runtime.WorkOutcome;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterContext;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterPipeline;
import io.tidb.operator.controller.tidbcluster.pipeline.Component;
import io.tidb.operator.controller.tidbcluster.pipeline.ComponentStep;
import io.tidb.operator.controller.tidbcluster.pipeline.Prerequisite;
import io.tidb.operator.controller.tidbcluster.pipeline.ReadyCondition;
import io.tidb.operator.controller.tidbcluster.pipeline.StepResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A component is declared once: a step of its own, registered in the list. A component no
 * controller class knows ("widget", declared only in this test) takes part in the pipeline,
 * applies its objects, waits for its prerequisite and decides its part of the {@code Ready}
 * verdict, next to the real components, with no switch or enum to extend anywhere.
 */
class ComponentRegistrationTest {

  private static final Component WIDGET = new Component("widget");

  /** The test's component: a ConfigMap, a StatefulSet it reports up to date, its own health. */
  private static final class WidgetStep implements ComponentStep {
    private final Prerequisite prerequisite;
    boolean healthy;

    WidgetStep(Prerequisite prerequisite) {
      this.prerequisite = prerequisite;
    }

    @Override
    public String name() {
      return WIDGET.label();
    }

    @Override
    public boolean enabled(TidbCluster cluster) {
      return true;
    }

    @Override
    public Optional<String> waitingFor(ClusterContext ctx) {
      return prerequisite.unmet(ctx);
    }

    @Override
    public void observe(ClusterContext ctx) {
      ctx.observed(
          new ReadyCondition.Observed(
              WIDGET,
              1,
              true,
              ReadyCondition.requiring(
                  (status, desired) -> healthy, "WidgetUnhealthy", "widget is down")));
    }

    @Override
    public StepResult apply(ClusterContext ctx) {
      ctx.apply(
          new ConfigMapBuilder()
              .withNewMetadata()
              .withName(ctx.name() + "-widget")
              .withNamespace(ctx.namespace())
              .endMetadata()
              .withData(Map.of("widget.toml", "size = 1"))
              .build());
      return StepResult.CONTINUE;
    }
  }

  private final FakeOwnedObjects owned = new FakeOwnedObjects();
  private final FakeApplier applier = new FakeApplier();
  private final RecordingEventRecorder events = new RecordingEventRecorder();

  /** A cluster that asks for no PD, TiKV or TiDB: the real steps are registered but disabled. */
  private static TidbCluster cluster() {
    TidbCluster tc = new TidbCluster();
    tc.setMetadata(
        new ObjectMetaBuilder().withName("basic").withNamespace("db").withGeneration(2L).build());
    tc.setSpec(new TidbClusterSpec());
    return tc;
  }

  private WorkOutcome run(TidbCluster tc, TidbClusterStatus status, WidgetStep widget)
      throws Exception {
    List<ComponentStep> steps = new ArrayList<>(ClusterComponents.upstreamOrder("operator:test"));
    steps.add(widget); // the one registration line
    TidbClusterWork work = new TidbClusterWork(
            new ClusterPipeline(steps), c -> new FakeClusterApi(), (ns, cache) -> new FakeVolumeClaims());
    ResourceContext<TidbCluster, TidbClusterStatus> ctx =
        new ResourceContext<>(tc, tc, status, owned, applier, events, ClusterContexts.NOW);
    WorkOutcome outcome = work.work(ctx);
    ctx.recordWrites(); // as the reconcile skeleton does
    return outcome;
  }

  private static Condition ready(TidbClusterStatus status) {
    return status.getConditions().stream()
        .filter(c -> ReadyCondition.TYPE.equals(c.getType()))
        .findFirst()
        .orElseThrow();
  }

  @Test
  void aRegisteredComponentAppliesItsObjectsAndDecidesReady() throws Exception {
    WidgetStep widget = new WidgetStep(Prerequisite.NONE);
    TidbCluster tc = cluster();
    TidbClusterStatus status = new TidbClusterStatus();

    WorkOutcome outcome = run(tc, status, widget);
    assertFalse(outcome.converging());
    assertEquals(List.of("ConfigMap basic-widget"), applier.writes);
    assertEquals(List.of("SuccessfulCreate"), events.reasons());
    assertEquals("False", ready(status).getStatus());
    assertEquals("WidgetUnhealthy", ready(status).getReason());
    assertEquals(2L, ready(status).getObservedGeneration());

    widget.healthy = true;
    TidbClusterStatus next = new TidbClusterStatus();
    run(tc, next, widget);
    assertEquals("True", ready(next).getStatus());
    assertEquals(List.of("ConfigMap basic-widget"), applier.writes, "the second run writes nothing");
  }

  @Test
  void anUnmetPrerequisiteStopsTheComponentAsConverging() throws Exception {
    WidgetStep widget = new WidgetStep(ctx -> Optional.of("waiting for the gadget"));
    TidbClusterStatus status = new TidbClusterStatus();

    WorkOutcome outcome = run(cluster(), status, widget);
    assertTrue(outcome.converging());
    assertEquals("widget", outcome.step());
    assertEquals(Optional.of("waiting for the gadget"), outcome.waitingFor());
    assertTrue(applier.writes.isEmpty());
  }
}
