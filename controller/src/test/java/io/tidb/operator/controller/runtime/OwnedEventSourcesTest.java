package io.tidb.operator.controller.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** How a volume claim finds its primary, and how the cache's list selects by labels. */
class OwnedEventSourcesTest {

  private static PersistentVolumeClaim claim(Map<String, String> labels) {
    return new PersistentVolumeClaimBuilder()
        .withNewMetadata().withName("pd-basic-pd-0").withNamespace("db").withLabels(labels)
        .endMetadata()
        .build();
  }

  @Test
  void aClaimIsKeyedByItsNamespaceAndInstanceLabel() {
    assertEquals(Optional.of("db/release-1"),
        OwnedEventSources.instanceOf(claim(Map.of(OwnedEventSources.INSTANCE, "release-1"))));
    assertEquals(OwnedEventSources.instanceKey("db", "release-1"), "db/release-1",
        "the key the primary cache's index gives a cluster whose instance is release-1");
    assertEquals(Optional.empty(), OwnedEventSources.instanceOf(claim(Map.of())));
    assertEquals(Optional.empty(),
        OwnedEventSources.instanceOf(claim(Map.of(OwnedEventSources.INSTANCE, ""))));
  }

  @Test
  void onlyClaimChangesTheReconcileActsOnTriggerOne() {
    PersistentVolumeClaim pending = new PersistentVolumeClaimBuilder(claim(Map.of()))
        .withNewStatus().withPhase("Pending").endStatus().build();
    PersistentVolumeClaim bound = new PersistentVolumeClaimBuilder(pending)
        .withNewSpec().withVolumeName("pv-0").endSpec().build();
    PersistentVolumeClaim phase = new PersistentVolumeClaimBuilder(bound)
        .editStatus().withPhase("Bound").endStatus().build();
    PersistentVolumeClaim labelled = new PersistentVolumeClaimBuilder(phase)
        .editMetadata().addToLabels("tidb.pingcap.com/store-id", "4").endMetadata().build();
    PersistentVolumeClaim resized = new PersistentVolumeClaimBuilder(labelled)
        .editStatus().addToCapacity("storage", new io.fabric8.kubernetes.api.model.Quantity("2Gi"))
        .endStatus().build();
    PersistentVolumeClaim deleting = new PersistentVolumeClaimBuilder(resized)
        .editMetadata().withDeletionTimestamp("2026-01-01T00:00:00Z").endMetadata().build();

    assertTrue(OwnedEventSources.claimChangeMatters(bound, pending), "bound to a volume");
    assertFalse(OwnedEventSources.claimChangeMatters(phase, bound), "phase bookkeeping");
    assertFalse(OwnedEventSources.claimChangeMatters(labelled, phase), "the operator's own label");
    assertTrue(OwnedEventSources.claimChangeMatters(resized, labelled), "a resize reported");
    assertTrue(OwnedEventSources.claimChangeMatters(deleting, resized), "deletion started");
  }

  @Test
  void listedObjectsCarryEveryLabelAsked() {
    PersistentVolumeClaim c = claim(Map.of(OwnedEventSources.INSTANCE, "basic",
        "app.kubernetes.io/component", "pd"));
    assertTrue(InformerOwnedObjects.hasLabels(c, Map.of()));
    assertTrue(InformerOwnedObjects.hasLabels(c, Map.of("app.kubernetes.io/component", "pd")));
    assertFalse(InformerOwnedObjects.hasLabels(c, Map.of("app.kubernetes.io/component", "tikv")));
    assertFalse(InformerOwnedObjects.hasLabels(claim(null), Map.of("app.kubernetes.io/component", "pd")));
  }

  @Test
  void objectsWithAnInstanceAndAComponentAreIndexedByBoth() {
    Map<String, String> pd = Map.of(OwnedEventSources.INSTANCE, "basic",
        OwnedEventSources.COMPONENT, "pd", "app.kubernetes.io/managed-by", "tidb-operator");
    assertEquals(java.util.List.of("db/basic/pd"), OwnedEventSources.componentKeys(claim(pd)));
    assertEquals(Optional.of("db/basic/pd"), OwnedEventSources.componentKey("db", pd),
        "a selector naming both is answered from the index, under the same key");
    assertEquals(java.util.List.of(),
        OwnedEventSources.componentKeys(claim(Map.of(OwnedEventSources.INSTANCE, "basic"))));
    assertEquals(java.util.List.of(), OwnedEventSources.componentKeys(claim(null)));
    assertEquals(Optional.empty(),
        OwnedEventSources.componentKey("db", Map.of(OwnedEventSources.COMPONENT, "pd")),
        "a selector without the instance is answered by a scan");
  }

  @Test
  void aDeploymentUpdateReconcilesUnlessOnlyItsStatusMoved() {
    io.fabric8.kubernetes.api.model.apps.Deployment rolled = new io.fabric8.kubernetes.api.model.apps.DeploymentBuilder()
        .withNewMetadata().withName("basic-discovery").withGeneration(1L).withResourceVersion("5")
        .withLabels(Map.of("app.kubernetes.io/component", "discovery")).endMetadata()
        .withNewStatus().withReplicas(1).endStatus().build();
    var ready = new io.fabric8.kubernetes.api.model.apps.DeploymentBuilder(rolled)
        .editMetadata().withResourceVersion("6").endMetadata()
        .editStatus().withReadyReplicas(1).withAvailableReplicas(1).endStatus().build();
    var edited = new io.fabric8.kubernetes.api.model.apps.DeploymentBuilder(ready)
        .editMetadata().withGeneration(2L).endMetadata().build();
    var relabelled = new io.fabric8.kubernetes.api.model.apps.DeploymentBuilder(ready)
        .editMetadata().addToLabels("extra", "1").endMetadata().build();
    var deleting = new io.fabric8.kubernetes.api.model.apps.DeploymentBuilder(ready)
        .editMetadata().withDeletionTimestamp("2026-01-01T00:00:00Z").endMetadata().build();
    assertFalse(OwnedEventSources.beyondStatus(ready, rolled), "the Deployment controller's status");
    assertTrue(OwnedEventSources.beyondStatus(edited, ready), "someone changed the spec");
    assertTrue(OwnedEventSources.beyondStatus(relabelled, ready), "labels changed");
    assertTrue(OwnedEventSources.beyondStatus(deleting, ready), "deletion started");
  }
}
