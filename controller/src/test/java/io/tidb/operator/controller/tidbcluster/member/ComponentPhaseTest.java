package io.tidb.operator.controller.tidbcluster.member;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder;
import java.util.Optional;
import org.junit.jupiter.api.Test;

public class ComponentPhaseTest {

  public static StatefulSet sts(
      int specReplicas, int statusReplicas, String current, String update, long gen, long seen) {
    return new StatefulSetBuilder()
        .withNewMetadata()
        .withName("basic-pd")
        .withGeneration(gen)
        .endMetadata()
        .withNewSpec()
        .withReplicas(specReplicas)
        .endSpec()
        .withNewStatus()
        .withReplicas(statusReplicas)
        .withCurrentRevision(current)
        .withUpdateRevision(update)
        .withObservedGeneration(seen)
        .endStatus()
        .build();
  }

  @Test
  void settledStatefulSetIsNormalAndUpToDate() {
    StatefulSet s = sts(3, 3, "r1", "r1", 2, 2);
    assertEquals(ComponentPhase.NORMAL, ComponentPhase.of(3, Optional.of(s)));
    assertTrue(ComponentPhase.isUpToDate(s));
  }

  @Test
  void desiredDifferentFromStatefulSetIsScale() {
    assertEquals(ComponentPhase.SCALE, ComponentPhase.of(4, Optional.of(sts(3, 3, "r1", "r1", 2, 2))));
  }

  @Test
  void podsStillBeingCreatedIsScale() {
    assertEquals(ComponentPhase.SCALE, ComponentPhase.of(4, Optional.of(sts(4, 3, "r1", "r1", 3, 3))));
  }

  @Test
  void revisionsApartIsUpgradeAndNotUpToDate() {
    StatefulSet s = sts(3, 3, "r1", "r2", 3, 3);
    assertEquals(ComponentPhase.UPGRADE, ComponentPhase.of(3, Optional.of(s)));
    assertFalse(ComponentPhase.isUpToDate(s));
  }

  @Test
  void unobservedGenerationIsNotUpToDate() {
    assertFalse(ComponentPhase.isUpToDate(sts(3, 3, "r1", "r1", 3, 2)));
  }

  @Test
  void missingStatefulSetIsNormal() {
    assertEquals(ComponentPhase.NORMAL, ComponentPhase.of(3, Optional.empty()));
  }
}
