package io.tidb.operator.controller.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tidb.operator.api.v1alpha1.dm.DmCluster;
import io.tidb.operator.pdsim.FaultRule;
import io.tidb.operator.testsupport.ClusterAccess;
import io.tidb.operator.testsupport.WithLocalControlPlane;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * While the dm-master API answers 5xx or too slowly, a wanted scale-in takes no destructive step:
 * no member deleted, no pod removed, Ready=False naming the API; once it answers again the
 * scale-in goes ahead.
 */
@WithLocalControlPlane
class DmMasterFaultsIT {

  private static DmHarness h;

  @BeforeAll
  static void start(ClusterAccess access) {
    h = new DmHarness(access, "dm-faults-it");
  }

  @AfterAll
  static void stop() {
    if (h != null) {
      h.close();
    }
  }

  @Test
  void noDestructiveStepWhileTheDmApiFails() throws Exception {
    h.create("basic", """
        version: v8.5.7
        master: {replicas: 3, storageSize: 1Gi}
        """);
    h.awaitReady("basic");
    int failing = h.simulator.faults().add(FaultRule.fail("/apis/v1alpha1/members", 500));
    h.edit("basic", dc -> {
      dc.getSpec().getMaster().setReplicas(2);
      return dc;
    });
    h.await("basic", "Ready=False DMMasterUnreachable", dc -> DmHarness.condition(dc, "Ready")
        .filter(c -> "DMMasterUnreachable".equals(c.getReason())).isPresent());
    Thread.sleep(5_000);
    assertEquals(3, h.statefulSet("basic-dm-master").getSpec().getReplicas());
    assertEquals(List.of(), h.dmMutations("basic"));

    h.simulator.faults().remove(failing);
    int slow = h.simulator.faults().add(FaultRule.slow("/apis/v1alpha1/members", Duration.ofSeconds(4)));
    Thread.sleep(8_000);
    assertEquals(3, h.statefulSet("basic-dm-master").getSpec().getReplicas());
    assertEquals(List.of(), h.dmMutations("basic"), "a call that timed out is no answer");

    h.simulator.faults().remove(slow);
    DmCluster dc = h.await("basic", "two members, Ready", d -> DmHarness.ready(d)
        && d.getStatus().getMaster().getMembers().size() == 2);
    // The scale-in deletes basic-dm-master-2, after asking it to give up the lead when it held it
    // then (one run of the full suite, 2026-12-05, saw the eviction first).
    List<String> mutations = h.dmMutations("basic");
    assertEquals("DELETE /apis/v1alpha1/members/master/basic-dm-master-2", mutations.get(mutations.size() - 1),
        mutations.toString());
    assertTrue(mutations.subList(0, mutations.size() - 1).stream()
        .allMatch("PUT /apis/v1alpha1/leader/1 @basic-dm-master-2"::equals), mutations.toString());
    assertEquals(2, dc.getStatus().getMaster().getMembers().size());
  }
}
