package io.tidb.operator.controller.tidbcluster.member;

import static io.tidb.operator.controller.fixtures.Rollouts.NEW;
import static io.tidb.operator.controller.fixtures.Rollouts.OLD;
import static io.tidb.operator.controller.fixtures.Rollouts.rollout;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** When the {@code Upgrade} condition shows an upgrade: not for a bring-up or a scale-out. */
class RolloutUpgradeShownTest {

  @Test
  void aNewStatefulSetNotYetSeenByItsControllerIsNoUpgrade() {
    Rollout created = new Rollout("basic-pd", 3, 3, false, false, null, null, Map.of());
    assertFalse(created.upgradeShown(true, false));
  }

  @Test
  void podsStillBeingCreatedAtTheUpdateRevisionAreNoUpgrade() {
    Rollout bringUp = rollout("basic-pd", 3).revisions(NEW, NEW).ready(0, NEW).notReady(1, NEW).build();
    assertFalse(bringUp.upgradeShown(true, false), "bring-up, or a scale-out's new pods");
  }

  @Test
  void aTemplateNotAppliedYetIsAnUpgrade() {
    Rollout settled = rollout("basic-pd", 3).revisions(NEW, NEW).allReady(NEW).build();
    assertTrue(settled.upgradeShown(false, false));
  }

  @Test
  void differentRevisionsOrAnOldPodAreAnUpgrade() {
    assertTrue(rollout("basic-pd", 3).revisions(OLD, NEW).allReady(NEW).build().upgradeShown(true, false));
    assertTrue(rollout("basic-pd", 3).revisions(NEW, NEW).allReady(NEW).ready(1, OLD).build()
        .upgradeShown(true, false));
  }

  @Test
  void anUpgradeShownStaysUntilEveryPodIsBackAndTheSpecIsSeen() {
    Rollout lastPodRecreated = rollout("basic-pd", 3).revisions(NEW, NEW).allReady(NEW).without(0).build();
    assertTrue(lastPodRecreated.upgradeShown(true, true),
        "the StatefulSet may call the rollout complete while the last pod is being recreated");
    assertFalse(lastPodRecreated.upgradeShown(true, false));

    Rollout templateNotSeenYet = new Rollout("basic-pd", 3, 3, false, false, NEW, NEW, Map.of());
    assertTrue(templateNotSeenYet.upgradeShown(true, true), "a new template the controller has not seen");

    Rollout done = rollout("basic-pd", 3).revisions(NEW, NEW).allReady(NEW).build();
    assertFalse(done.upgradeShown(true, true));
  }
}
