package io.tidb.operator.controller.tidbcluster.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.cluster.TidbClusterSpec;
import io.tidb.operator.controller.fixtures.ClusterContexts;
import io.tidb.operator.controller.fixtures.FakeClusterApi;
import io.tidb.operator.controller.fixtures.FakeOwnedObjects;
import io.tidb.operator.controller.runtime.StepFailedException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ClusterPipelineTest {

  private final List<String> calls = new ArrayList<>();

  private class Recording implements ComponentStep {
    private final String name;
    private final boolean enabled;
    private final Optional<String> waiting;
    private final StepResult result;
    private final Exception failure;

    Recording(String name, boolean enabled, Optional<String> waiting, StepResult result, Exception failure) {
      this.name = name;
      this.enabled = enabled;
      this.waiting = waiting;
      this.result = result;
      this.failure = failure;
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public boolean enabled(TidbCluster cluster) {
      return enabled;
    }

    @Override
    public Optional<String> waitingFor(ClusterContext ctx) {
      calls.add(name + ".waitingFor");
      return waiting;
    }

    @Override
    public void observe(ClusterContext ctx) {
      calls.add(name + ".observe");
    }

    @Override
    public void notReached(ClusterContext ctx) {
      calls.add(name + ".notReached");
    }

    @Override
    public StepResult apply(ClusterContext ctx) throws Exception {
      calls.add(name + ".apply");
      if (failure != null) {
        throw failure;
      }
      return result;
    }
  }

  private Recording ok(String name) {
    return new Recording(name, true, Optional.empty(), StepResult.CONTINUE, null);
  }

  static ClusterContext context(boolean paused) {
    TidbCluster tc = new TidbCluster();
    tc.setMetadata(new ObjectMetaBuilder().withName("basic").withNamespace("db").build());
    TidbClusterSpec spec = new TidbClusterSpec();
    spec.setPaused(paused);
    tc.setSpec(spec);
    return ClusterContexts.observing(tc, new FakeOwnedObjects(), new FakeClusterApi());
  }

  @Test
  void runsEveryEnabledStepInOrder() throws Exception {
    var outcome =
        new ClusterPipeline(
                List.of(
                    ok("a"),
                    new Recording("off", false, Optional.empty(), StepResult.CONTINUE, null),
                    ok("b")))
            .run(context(false));
    assertEquals(
        List.of("a.waitingFor", "a.observe", "a.apply", "b.waitingFor", "b.observe", "b.apply"),
        calls);
    assertFalse(outcome.converging());
    assertEquals("all", outcome.step());
  }

  @Test
  void aConvergedRunComesBackWhenAStepAskedFor() throws Exception {
    ComponentStep asking = new Recording("volumes", true, Optional.empty(), StepResult.CONTINUE, null) {
      @Override
      public StepResult apply(ClusterContext ctx) throws Exception {
        ctx.recheckWithin(java.time.Duration.ofSeconds(15));
        ctx.recheckWithin(java.time.Duration.ofSeconds(4));
        ctx.recheckWithin(java.time.Duration.ofSeconds(9));
        return super.apply(ctx);
      }
    };
    var outcome = new ClusterPipeline(List.of(ok("a"), asking)).run(context(false));
    assertEquals("converged", outcome.result());
    assertEquals(Optional.of(java.time.Duration.ofSeconds(4)), outcome.recheckAfter(), "the soonest ask");
    assertEquals(Optional.empty(),
        new ClusterPipeline(List.of(ok("a"))).run(context(false)).recheckAfter(), "none asked");
  }

  @Test
  void unmetPrerequisiteStopsBeforeObserving() throws Exception {
    var outcome =
        new ClusterPipeline(
                List.of(
                    ok("pd"),
                    new Recording("tikv", true, Optional.of("PD quorum"), StepResult.CONTINUE, null),
                    new Recording("off", false, Optional.empty(), StepResult.CONTINUE, null),
                    ok("tidb")))
            .run(context(false));
    assertEquals(
        List.of("pd.waitingFor", "pd.observe", "pd.apply", "tikv.waitingFor", "tikv.notReached",
            "tidb.notReached"),
        calls);
    assertTrue(outcome.converging());
    assertEquals("tikv", outcome.step());
    assertEquals("PD quorum", outcome.waitingFor().orElseThrow());
  }

  @Test
  void convergingApplyStopsTheRun() throws Exception {
    var outcome =
        new ClusterPipeline(
                List.of(
                    new Recording(
                        "pd", true, Optional.empty(), StepResult.converging("PD starting"), null),
                    ok("tikv")))
            .run(context(false));
    assertEquals(List.of("pd.waitingFor", "pd.observe", "pd.apply", "tikv.notReached"), calls);
    assertEquals("pd", outcome.step());
  }

  @Test
  void pausedObservesButNeverApplies() throws Exception {
    var outcome = new ClusterPipeline(List.of(ok("pd"), ok("tikv"))).run(context(true));
    assertEquals(
        List.of("pd.waitingFor", "pd.observe", "tikv.waitingFor", "tikv.observe"), calls);
    assertFalse(outcome.converging());
  }

  @Test
  void failureNamesTheStep() {
    IOException boom = new IOException("boom");
    var e =
        assertThrows(
            StepFailedException.class,
            () ->
                new ClusterPipeline(
                        List.of(
                            ok("pd"),
                            new Recording("tikv", true, Optional.empty(), null, boom),
                            ok("tidb")))
                    .run(context(false)));
    assertEquals("tikv", e.step());
    assertSame(boom, e.getCause());
    assertFalse(calls.contains("tidb.waitingFor"));
  }
}
