package io.tidb.operator.controller.tidbcluster.pump;

import static io.tidb.operator.controller.fixtures.Rollouts.NOW;
import static io.tidb.operator.controller.fixtures.Rollouts.OLD;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tidb.operator.controller.fixtures.Rollouts;
import io.tidb.operator.controller.tidbcluster.member.MemberDecision;
import io.tidb.operator.controller.tidbcluster.member.ObservedPod;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterApi;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Upstream's Pump scale-in as a decision table: offline first, the pod goes once offline. */
class PumpScaleInTest {

  private static final String POD = "basic-pump-2";
  private static final Optional<ObservedPod> READY =
      Optional.of(Rollouts.pod("basic-pump", 2, OLD, Optional.of(Rollouts.LONG_AGO), Rollouts.LONG_AGO));
  private static final Optional<ObservedPod> NOT_READY_OLD =
      Optional.of(Rollouts.pod("basic-pump", 2, OLD, Optional.empty(), Rollouts.LONG_AGO));
  private static final Optional<ObservedPod> NOT_READY_NEW =
      Optional.of(Rollouts.pod("basic-pump", 2, OLD, Optional.empty(), NOW.minus(Duration.ofSeconds(30))));
  private static final MemberDecision SHRINK =
      new MemberDecision.Resize(2, "scaling in from 3 to 2 (spec.pump.replicas is 1)");

  private static Optional<ClusterApi.PumpNode> node(String state) {
    return Optional.of(new ClusterApi.PumpNode("basic-pump-2:8250",
        "basic-pump-2.basic-pump:8250", state));
  }

  private record Row(String name, int stsPods, Optional<ObservedPod> pod,
      Optional<ClusterApi.PumpNode> node, MemberDecision expected) {}

  @Test
  void decisionTable() {
    List<Row> rows = List.of(
        new Row("the StatefulSet is short of pods: wait", 2, READY, node("online"),
            MemberDecision.waitFor("waiting for the StatefulSet to have its 3 pods (it has 2)"
                + " before basic-pump-2 goes")),
        new Row("online: ask it to go offline", 3, READY, node("online"),
            new MemberDecision.Act(new PumpActions.Offline(POD, "basic-pump-2:8250"),
                "asking pump basic-pump-2:8250 (basic-pump-2) to go offline before its pod is"
                    + " removed")),
        new Row("closing: wait for offline", 3, READY, node("closing"),
            MemberDecision.waitFor("waiting for pump basic-pump-2:8250 (basic-pump-2) to be"
                + " offline; the binlog registry says closing")),
        new Row("offline: the pod goes", 3, READY, node("offline"), SHRINK),
        new Row("not registered and Ready: wait for it to register", 3, READY, Optional.empty(),
            MemberDecision.waitFor("pump pod basic-pump-2 is Ready but not in the binlog registry;"
                + " waiting for it to register before it is taken offline")),
        new Row("not registered, not Ready, young: give it time", 3, NOT_READY_NEW,
            Optional.empty(),
            MemberDecision.waitFor("pump pod basic-pump-2 is not Ready and not registered; giving"
                + " it 150 s from its creation to register before it is removed")),
        new Row("not registered, not Ready, old: the pod goes", 3, NOT_READY_OLD,
            Optional.empty(), SHRINK),
        new Row("no pod, not registered: the slot goes", 3, Optional.empty(), Optional.empty(),
            SHRINK));
    for (Row row : rows) {
      assertEquals(row.expected(), PumpScaleIn.decide(new PumpScaleIn.Facts(3, 1, row.stsPods(),
          POD, row.pod(), row.node(), NOW)), row.name());
    }
  }
}
