package io.tidb.operator.controller.tidbcluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.tidb.operator.api.v1alpha1.cluster.PdMember;
import io.tidb.operator.api.v1alpha1.cluster.PdStatus;
import io.tidb.operator.api.v1alpha1.cluster.TidbClusterStatus;
import io.tidb.operator.api.v1alpha1.cluster.TidbMember;
import io.tidb.operator.api.v1alpha1.cluster.TidbStatus;
import io.tidb.operator.api.v1alpha1.cluster.TikvStatus;
import io.tidb.operator.api.v1alpha1.cluster.TikvStore;
import io.tidb.operator.controller.tidbcluster.member.ComponentPhase;
import io.tidb.operator.controller.tidbcluster.member.ComponentPhaseTest;
import io.tidb.operator.controller.tidbcluster.member.MemberStep;
import io.tidb.operator.controller.tidbcluster.pd.PdStep;
import io.tidb.operator.controller.tidbcluster.pipeline.Component;
import io.tidb.operator.controller.tidbcluster.pipeline.Prerequisite;
import io.tidb.operator.controller.tidbcluster.pipeline.ReadyCondition.Observed;
import io.tidb.operator.controller.tidbcluster.pipeline.ReadyCondition;
import io.tidb.operator.controller.tidbcluster.tidb.TidbStep;
import io.tidb.operator.controller.tidbcluster.tikv.TikvStep;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The Ready verdict folded from the real PD, TiKV and TiDB readiness checks. */
class ReadyConditionTest {

  private static final PdStep PD = new PdStep();
  private static final TikvStep TIKV = new TikvStep(Prerequisite.NONE);
  private static final TidbStep TIDB = new TidbStep(Prerequisite.NONE);

  private static final StatefulSet SETTLED = ComponentPhaseTest.sts(1, 1, "r", "r", 1, 1);

  private static List<Observed> all(StatefulSet pd) {
    return List.of(
        observed(PD, 1, Optional.of(pd)),
        observed(TIKV, 1, Optional.of(SETTLED)),
        observed(TIDB, 1, Optional.of(SETTLED)));
  }

  private static Observed observed(
      MemberStep<?> step, int desired, Optional<StatefulSet> sts) {
    return new Observed(
        new Component(step.name()),
        desired,
        sts.map(ComponentPhase::isUpToDate).orElse(false),
        step.readiness());
  }

  private static TidbClusterStatus healthy() {
    PdMember m = new PdMember();
    m.setName("basic-pd-0");
    m.setHealth(true);
    PdStatus pd = new PdStatus();
    pd.setMembers(Map.of("basic-pd-0", m));
    pd.setSynced(true);
    TikvStore s = new TikvStore();
    s.setId("1");
    s.setState("Up");
    TikvStatus tikv = new TikvStatus();
    tikv.setStores(Map.of("1", s));
    tikv.setSynced(true);
    TidbMember t = new TidbMember();
    t.setName("basic-tidb-0");
    t.setHealth(true);
    TidbStatus tidb = new TidbStatus();
    tidb.setMembers(Map.of("basic-tidb-0", t));
    TidbClusterStatus status = new TidbClusterStatus();
    status.setPd(pd);
    status.setTikv(tikv);
    status.setTidb(tidb);
    return status;
  }

  @Test
  void everythingUpIsReady() {
    var v = ReadyCondition.evaluate(healthy(), all(SETTLED));
    assertTrue(v.ready());
    assertEquals("Ready", v.reason());
  }

  @Test
  void statefulSetCheckComesFirst() {
    TidbClusterStatus status = healthy();
    status.getPd().getMembers().get("basic-pd-0").setHealth(false);
    var v = ReadyCondition.evaluate(status, all(ComponentPhaseTest.sts(1, 1, "a", "b", 1, 1)));
    assertEquals("StatfulSetNotUpToDate", v.reason());
  }

  @Test
  void missingStatefulSetIsNotUpToDate() {
    var v =
        ReadyCondition.evaluate(
            healthy(), List.of(observed(PD, 1, Optional.empty())));
    assertEquals("StatfulSetNotUpToDate", v.reason());
  }

  @Test
  void unhealthyPd() {
    TidbClusterStatus status = healthy();
    status.getPd().getMembers().get("basic-pd-0").setHealth(false);
    assertEquals("PDUnhealthy", ReadyCondition.evaluate(status, all(SETTLED)).reason());
  }

  @Test
  void tooFewPdMembers() {
    var v =
        ReadyCondition.evaluate(
            healthy(),
            List.of(
                observed(PD, 3, Optional.of(SETTLED)), observed(TIKV, 1, Optional.of(SETTLED))));
    assertEquals("PDUnhealthy", v.reason());
  }

  @Test
  void pdThatCouldNotBeReachedIsUnhealthyWhateverItsLastMembers() {
    TidbClusterStatus status = healthy();
    status.getPd().setSynced(false);
    assertEquals("PDUnhealthy", ReadyCondition.evaluate(status, all(SETTLED)).reason());
    status.getPd().setSynced(true);
    status.getTikv().setSynced(false);
    assertEquals("TiKVStoreNotUp", ReadyCondition.evaluate(status, all(SETTLED)).reason());
  }

  @Test
  void storeNotUp() {
    TidbClusterStatus status = healthy();
    status.getTikv().getStores().get("1").setState("Offline");
    assertEquals("TiKVStoreNotUp", ReadyCondition.evaluate(status, all(SETTLED)).reason());
  }

  @Test
  void tidbUnhealthy() {
    TidbClusterStatus status = healthy();
    status.getTidb().getMembers().get("basic-tidb-0").setHealth(false);
    var v = ReadyCondition.evaluate(status, all(SETTLED));
    assertEquals("TiDBUnhealthy", v.reason());
    assertEquals("False", v.status());
  }

  @Test
  void componentWithoutStatusIsNotReady() {
    TidbClusterStatus status = healthy();
    status.setTidb(null);
    assertEquals("TiDBUnhealthy", ReadyCondition.evaluate(status, all(SETTLED)).reason());
  }
}
