package io.tidb.operator.controller.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FloorObjectsTest {

  private static StatefulSet operatorMade() {
    return new StatefulSetBuilder()
        .withNewMetadata()
          .withName("bench-0-pd").withNamespace("bench-1-abc").withUid("u-1").withResourceVersion("42")
          .withGeneration(3L).withCreationTimestamp("2026-12-02T06:00:00Z")
          .addToLabels("app.kubernetes.io/component", "pd").addToAnnotations("a", "b")
          .addNewOwnerReference().withKind("TidbCluster").withName("bench-0").withUid("tc").endOwnerReference()
          .addNewManagedField().withManager("tidb-operator").endManagedField()
        .endMetadata()
        .withNewSpec()
          .withReplicas(3).withServiceName("bench-0-pd-peer")
          .withNewTemplate().withNewSpec().withServiceAccountName("bench-0-pd").addNewContainer().withName("pd")
          .endContainer().endSpec().endTemplate()
          .addNewVolumeClaimTemplate().withNewMetadata().withName("pd").endMetadata().endVolumeClaimTemplate()
        .endSpec()
        .withNewStatus().withReplicas(3).withReadyReplicas(3).endStatus()
        .build();
  }

  @Test
  void aStatefulSetCopyKeepsNameLabelsAnnotationsAndSpecAndDropsWhatTheServerAndOperatorSet() {
    StatefulSet source = operatorMade();
    StatefulSet copy = FloorObjects.copy(source, "floor-1");
    assertEquals("bench-0-pd", copy.getMetadata().getName());
    assertEquals("floor-1", copy.getMetadata().getNamespace());
    assertEquals(Map.of("app.kubernetes.io/component", "pd"), copy.getMetadata().getLabels());
    assertEquals(Map.of("a", "b"), copy.getMetadata().getAnnotations());
    assertTrue(copy.getMetadata().getOwnerReferences().isEmpty());
    assertTrue(copy.getMetadata().getManagedFields().isEmpty());
    assertNull(copy.getMetadata().getUid());
    assertNull(copy.getMetadata().getResourceVersion());
    assertNull(copy.getMetadata().getCreationTimestamp());
    assertNull(copy.getStatus());
    assertEquals(3, copy.getSpec().getReplicas());
    assertEquals("pd", copy.getSpec().getVolumeClaimTemplates().get(0).getMetadata().getName());
    assertNull(copy.getSpec().getTemplate().getSpec().getServiceAccountName());
    assertEquals("bench-0-pd", source.getSpec().getTemplate().getSpec().getServiceAccountName(),
        "the source is left as it was");
  }

  @Test
  void aDeploymentCopyRunsUnderTheDefaultServiceAccount() {
    Deployment source = new DeploymentBuilder()
        .withNewMetadata().withName("bench-0-discovery").withNamespace("bench-1-abc")
          .addNewOwnerReference().withKind("TidbCluster").withName("bench-0").endOwnerReference().endMetadata()
        .withNewSpec().withReplicas(1).withNewTemplate().withNewSpec()
          .withServiceAccountName("bench-0-discovery").endSpec().endTemplate().endSpec()
        .build();
    Deployment copy = FloorObjects.copy(source, "floor-1");
    assertEquals("floor-1", copy.getMetadata().getNamespace());
    assertTrue(copy.getMetadata().getOwnerReferences().isEmpty());
    assertNull(copy.getSpec().getTemplate().getSpec().getServiceAccountName());
  }

  @Test
  void readyMeansEveryDesiredReplicaReady() {
    StatefulSet sts = operatorMade();
    assertTrue(FloorObjects.ready(sts));
    sts.getStatus().setReadyReplicas(2);
    assertFalse(FloorObjects.ready(sts));
    sts.setStatus(null);
    assertFalse(FloorObjects.ready(sts));
    Deployment noStatusYet = new DeploymentBuilder().withNewSpec().withReplicas(1).endSpec().build();
    assertFalse(FloorObjects.ready(noStatusYet));
    noStatusYet.setStatus(new io.fabric8.kubernetes.api.model.apps.DeploymentStatusBuilder().withReadyReplicas(1).build());
    assertTrue(FloorObjects.ready(noStatusYet));
  }
}
