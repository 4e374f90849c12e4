package io.tidb.operator.controller.tidbcluster.member;

import static io.tidb.operator.controller.fixtures.Rollouts.LONG_AGO;
import static io.tidb.operator.controller.fixtures.Rollouts.NEW;
import static io.tidb.operator.controller.fixtures.Rollouts.NOW;
import static io.tidb.operator.controller.fixtures.Rollouts.OLD;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSetStatus;
import io.fabric8.kubernetes.api.model.apps.StatefulSetStatusBuilder;
import io.tidb.operator.controller.fixtures.Rollouts;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@link Rollout} and {@link ObservedPod}: what the rules see of a StatefulSet and its pods. */
class RolloutTest {

  private static final String CREATED = "2025-12-31T23:00:00Z";
  private static final String READY_AT = "2025-12-31T23:30:00Z";

  private static PodBuilder pod(String name) {
    return new PodBuilder()
        .withNewMetadata()
        .withName(name)
        .withUid("uid-" + name)
        .withCreationTimestamp(CREATED)
        .addToLabels(ObservedPod.REVISION_LABEL, NEW)
        .endMetadata();
  }

  private static PodBuilder readyPod(String name) {
    return pod(name)
        .withNewStatus()
        .addNewCondition().withType("PodScheduled").withStatus("True")
            .withLastTransitionTime(CREATED).endCondition()
        .addNewCondition().withType("Ready").withStatus("True")
            .withLastTransitionTime(READY_AT).endCondition()
        .endStatus();
  }

  private static StatefulSetBuilder sts(Integer replicas) {
    return new StatefulSetBuilder()
        .withNewMetadata().withName("basic-pd").withGeneration(4L).endMetadata()
        .withNewSpec()
        .withReplicas(replicas)
        .withNewUpdateStrategy().withType("RollingUpdate").withNewRollingUpdate().withPartition(2)
            .endRollingUpdate().endUpdateStrategy()
        .endSpec()
        .withStatus(
            new StatefulSetStatusBuilder()
                .withObservedGeneration(4L)
                .withCurrentRevision(OLD)
                .withUpdateRevision(NEW)
                .build());
  }

  // --- ObservedPod.of ---

  @Test
  void aReadyPodIsSeenWithItsOrdinalRevisionAndReadyTime() {
    ObservedPod p = ObservedPod.of(readyPod("basic-pd-12").build()).orElseThrow();
    assertEquals(
        new ObservedPod(
            12,
            "basic-pd-12",
            "uid-basic-pd-12",
            NEW,
            Optional.of(Instant.parse(READY_AT)),
            Instant.parse(CREATED),
            false),
        p);
    assertTrue(p.ready());
  }

  @Test
  void aPodWithoutAnOrdinalSuffixIsNotSeen() {
    assertEquals(Optional.empty(), ObservedPod.of(pod("basic").build()));
    assertEquals(Optional.empty(), ObservedPod.of(pod("basic-pd-").build()));
    assertEquals(Optional.empty(), ObservedPod.of(pod("basic-pd-x").build()));
  }

  @Test
  void aPodThatIsNotReadyHasNoReadyTime() {
    Pod notReady =
        pod("basic-pd-0").withNewStatus()
            .addNewCondition().withType("Ready").withStatus("False")
                .withLastTransitionTime(READY_AT).endCondition()
            .endStatus().build();
    ObservedPod p = ObservedPod.of(notReady).orElseThrow();
    assertEquals(Optional.empty(), p.readySince());
    assertFalse(p.ready());
    assertEquals(Optional.empty(), ObservedPod.of(pod("basic-pd-0").build()).orElseThrow().readySince());
    Pod noConditions = pod("basic-pd-0").withNewStatus().endStatus().build();
    noConditions.getStatus().setConditions(null);
    assertEquals(Optional.empty(), ObservedPod.of(noConditions).orElseThrow().readySince());
  }

  @Test
  void missingTimestampsCountFromTheEpoch() {
    Pod p = readyPod("basic-pd-1").build();
    p.getMetadata().setCreationTimestamp(null);
    p.getStatus().getConditions().get(1).setLastTransitionTime("");
    ObservedPod o = ObservedPod.of(p).orElseThrow();
    assertEquals(Instant.EPOCH, o.created());
    assertEquals(Optional.of(Instant.EPOCH), o.readySince());
  }

  @Test
  void aPodWithoutLabelsHasNoRevision() {
    Pod p = pod("basic-pd-1").build();
    p.getMetadata().setLabels(null);
    assertEquals(null, ObservedPod.of(p).orElseThrow().revision());
    p.getMetadata().setLabels(new HashMap<>(Map.of("app", "pd")));
    assertEquals(null, ObservedPod.of(p).orElseThrow().revision());
  }

  @Test
  void aPodBeingDeletedIsTerminatingAndNotReady() {
    Pod p = readyPod("basic-pd-1").editMetadata().withDeletionTimestamp(READY_AT).endMetadata().build();
    ObservedPod o = ObservedPod.of(p).orElseThrow();
    assertTrue(o.terminating());
    assertFalse(o.ready());
    assertFalse(o.readyFor(0, NOW));
    assertFalse(ObservedPod.of(readyPod("basic-pd-1").build()).orElseThrow().terminating());
  }

  @Test
  void readyForCountsFromTheReadyTime() {
    ObservedPod p = Rollouts.pod("basic-pd", 0, NEW, Optional.of(NOW.minusSeconds(30)), LONG_AGO);
    assertTrue(p.readyFor(30, NOW));
    assertTrue(p.readyFor(0, NOW));
    assertFalse(p.readyFor(31, NOW));
    ObservedPod notReady = Rollouts.pod("basic-pd", 0, NEW, Optional.empty(), LONG_AGO);
    assertFalse(notReady.readyFor(0, NOW));
  }

  // --- Rollout.of ---

  @Test
  void aRollingUpdateStatefulSetIsSeenWithItsPartitionRevisionsAndPods() {
    Rollout r =
        Rollout.of(
            sts(3).build(),
            List.of(readyPod("basic-pd-1").build(), pod("basic-pd-0").build(), pod("stray").build()));
    assertEquals("basic-pd", r.name());
    assertEquals(3, r.replicas());
    assertEquals(2, r.partition());
    assertTrue(r.observed());
    assertFalse(r.onDelete());
    assertEquals(OLD, r.currentRevision());
    assertEquals(NEW, r.updateRevision());
    assertEquals(List.of(0, 1), List.copyOf(r.pods().keySet()));
    assertEquals("basic-pd-1", r.pods().get(1).name());
    assertTrue(r.pods().get(1).ready());
  }

  @Test
  void withoutAPartitionEveryPodIsReleased() {
    StatefulSet noPartition = sts(3).build();
    noPartition.getSpec().getUpdateStrategy().getRollingUpdate().setPartition(null);
    assertEquals(0, Rollout.of(noPartition, List.of()).partition());

    StatefulSet noRollingUpdate = sts(3).build();
    noRollingUpdate.getSpec().getUpdateStrategy().setRollingUpdate(null);
    assertEquals(0, Rollout.of(noRollingUpdate, List.of()).partition());

    StatefulSet noStrategy = sts(3).build();
    noStrategy.getSpec().setUpdateStrategy(null);
    Rollout r = Rollout.of(noStrategy, List.of());
    assertEquals(0, r.partition());
    assertFalse(r.onDelete());
  }

  @Test
  void onDeleteIsSeen() {
    StatefulSet sts = sts(3).build();
    sts.getSpec().getUpdateStrategy().setType("OnDelete");
    sts.getSpec().getUpdateStrategy().setRollingUpdate(null);
    assertTrue(Rollout.of(sts, List.of()).onDelete());
  }

  @Test
  void unsetReplicasMeanOne() {
    assertEquals(1, Rollout.of(sts(null).build(), List.of()).replicas());
  }

  @Test
  void observedNeedsTheControllerToHaveSeenTheLatestGeneration() {
    StatefulSet sts = sts(3).build();
    sts.getStatus().setObservedGeneration(3L);
    assertFalse(Rollout.of(sts, List.of()).observed());
    sts.getStatus().setObservedGeneration(5L);
    assertTrue(Rollout.of(sts, List.of()).observed());
    sts.getStatus().setObservedGeneration(null);
    assertFalse(Rollout.of(sts, List.of()).observed());
    sts.getStatus().setObservedGeneration(1L);
    sts.getMetadata().setGeneration(null);
    assertTrue(Rollout.of(sts, List.of()).observed());
  }

  @Test
  void aStatefulSetWithoutStatusIsNotObservedAndHasNoRevisions() {
    StatefulSet sts = sts(3).build();
    sts.setStatus(null);
    Rollout r = Rollout.of(sts, List.of());
    assertFalse(r.observed());
    assertEquals(null, r.currentRevision());
    assertEquals(null, r.updateRevision());
    assertFalse(r.needsRoll());
    sts.setStatus(new StatefulSetStatus());
    assertFalse(Rollout.of(sts, List.of()).observed());
  }

  // --- the questions the rules ask ---

  @Test
  void podsAreKeptByOrdinalAndCannotBeChanged() {
    Rollout r = Rollouts.rollout("basic-pd", 3).ready(2, NEW).ready(0, OLD).build();
    assertEquals(List.of(0, 2), List.copyOf(r.pods().keySet()));
    assertEquals("basic-pd-4", r.podName(4));
    assertEquals(Optional.of(r.pods().get(2)), r.pod(2));
    assertEquals(Optional.empty(), r.pod(1));
    assertThrows(UnsupportedOperationException.class, () -> r.pods().remove(0));
  }

  @Test
  void aPodIsUpdatedWhenItRunsTheUpdateRevision() {
    Rollout r = Rollouts.rollout("basic-pd", 2).ready(0, NEW).ready(1, OLD).build();
    assertTrue(r.isUpdated(r.pods().get(0)));
    assertFalse(r.isUpdated(r.pods().get(1)));
    Rollout noRevision = Rollouts.rollout("basic-pd", 2).revisions(OLD, null).ready(0, null).build();
    assertFalse(noRevision.isUpdated(noRevision.pods().get(0)));
  }

  @Test
  void aRollIsNeededUntilEveryPodRunsTheUpdateRevision() {
    assertTrue(Rollouts.rollout("basic-pd", 2).allReady(OLD).build().needsRoll());
    assertTrue(Rollouts.rollout("basic-pd", 2).ready(0, NEW).ready(1, OLD).build().needsRoll());
    assertTrue(Rollouts.rollout("basic-pd", 2).revisions(NEW, NEW).ready(0, NEW).build().needsRoll(),
        "a missing pod still needs rolling");
    assertTrue(
        Rollouts.rollout("basic-pd", 2).revisions(NEW, NEW).ready(0, OLD).ready(1, NEW).build()
            .needsRoll(),
        "a pod at the old revision still needs rolling");
    assertTrue(Rollouts.rollout("basic-pd", 2).allReady(NEW).build().needsRoll(),
        "the StatefulSet's current revision is still the old one");
    assertFalse(Rollouts.rollout("basic-pd", 2).revisions(NEW, NEW).allReady(NEW).build().needsRoll());
    assertFalse(
        Rollouts.rollout("basic-pd", 2).revisions(NEW, NEW).allReady(NEW).ready(2, OLD).build()
            .needsRoll(),
        "a pod past the replicas does not count");
    assertFalse(Rollouts.rollout("basic-pd", 2).revisions(OLD, null).allReady(OLD).build().needsRoll());
  }

  @Test
  void rollingMeansThePartitionIsBelowTheReplicas() {
    assertFalse(Rollouts.rollout("basic-pd", 3).build().rolling());
    assertTrue(Rollouts.rollout("basic-pd", 3).partition(2).build().rolling());
    assertFalse(Rollouts.rollout("basic-pd", 3).partition(4).build().rolling());
  }

  @Test
  void updatedCountCountsUpdatedPodsBelowTheReplicas() {
    Rollout r =
        Rollouts.rollout("basic-pd", 3).ready(0, NEW).ready(2, NEW).ready(3, NEW).ready(1, OLD)
            .build();
    assertEquals(2, r.updatedCount());
    assertEquals(0, Rollouts.rollout("basic-pd", 3).build().updatedCount());
  }
}
