package io.tidb.operator.controller.tidbcluster.pump;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tidb.operator.api.v1alpha1.cluster.PumpMember;
import io.tidb.operator.api.v1alpha1.cluster.PumpStatus;
import io.tidb.operator.api.v1alpha1.cluster.TidbClusterStatus;
import io.tidb.operator.controller.tidbcluster.pipeline.Prerequisite;
import io.tidb.operator.controller.tidbcluster.pipeline.ReadyCondition;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class PumpStepTest {

  private final PumpStep step = new PumpStep(Prerequisite.NONE);

  private static TidbClusterStatus withPumps(String... states) {
    List<PumpMember> members = new ArrayList<>();
    for (int i = 0; i < states.length; i++) {
      PumpMember m = new PumpMember();
      m.setNodeId("basic-pump-" + i + ":8250");
      m.setHost("basic-pump-" + i + ".basic-pump:8250");
      m.setState(states[i]);
      members.add(m);
    }
    PumpStatus pump = new PumpStatus();
    pump.setSynced(true);
    pump.setMembers(members);
    TidbClusterStatus status = new TidbClusterStatus();
    status.setPump(pump);
    return status;
  }

  @Test
  void readyWhenExactlyTheDesiredPumpsAreOnline() {
    ReadyCondition.ReadinessCheck ready = step.readiness();
    assertEquals(Optional.empty(), ready.notReady(withPumps("online", "online"), 2));
    assertEquals(Optional.empty(), ready.notReady(withPumps("online", "online", "offline"), 2),
        "a pump taken offline by a scale-in stays in the registry");
    ReadyCondition.Verdict closing = ready.notReady(withPumps("online", "closing"), 2).orElseThrow();
    assertEquals("PumpNotOnline", closing.reason());
    assertEquals("Pump(s) are not online", closing.message());
    assertEquals("PumpNotOnline", ready.notReady(withPumps("online"), 2).orElseThrow().reason());
    TidbClusterStatus unsynced = withPumps("online");
    unsynced.getPump().setSynced(false);
    assertEquals("PumpNotOnline", ready.notReady(unsynced, 1).orElseThrow().reason());
  }

  @Test
  void aRegisteredPumpBelongsToThePodItAdvertises() {
    assertEquals(Optional.of("basic-pump-1"), PumpStep.podOf("basic", "basic-pump-1.basic-pump:8250"));
    assertEquals(Optional.of("basic-pump-0"),
        PumpStep.podOf("basic", "basic-pump-0.basic-pump.db.svc.cluster.local:8250"));
    assertEquals(Optional.empty(), PumpStep.podOf("basic", "other-pump-0.other-pump:8250"),
        "another cluster's pump on the same PD");
    assertEquals(Optional.empty(), PumpStep.podOf("basic", "basic-pump-x.basic-pump:8250"));
    assertEquals(Optional.empty(), PumpStep.podOf("basic", "10.0.0.1:8250"));
  }
}
