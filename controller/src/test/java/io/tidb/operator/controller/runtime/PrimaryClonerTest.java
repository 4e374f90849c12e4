package io.tidb.operator.controller.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.cluster.TidbClusterStatus;
import io.tidb.operator.api.v1alpha1.monitor.TidbMonitor;
import io.tidb.operator.controller.fixtures.TestClusters;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PrimaryClonerTest {

  private final KubernetesSerialization serialization = new KubernetesSerialization();
  private final PrimaryCloner cloner = new PrimaryCloner(serialization, Set.of(TidbMonitor.class));

  private static TidbCluster clusterWithStatus() {
    TidbCluster tc = TestClusters.load("full");
    tc.getMetadata().setLabels(new HashMap<>(Map.of("team", "db")));
    TidbClusterStatus status = new TidbClusterStatus();
    status.setClusterID("7312345678901234567");
    status.setObservedGeneration(3L);
    Condition ready = new ConditionBuilder().withType("Ready").withStatus("True")
        .withReason("Ready").withMessage("all components are ready").withObservedGeneration(3L)
        .withLastTransitionTime("2026-12-03T18:00:00Z").build();
    status.setConditions(new ArrayList<>(List.of(ready)));
    tc.setStatus(status);
    return tc;
  }

  @Test
  void copiesWhatFabric8sCloneCopies() {
    TidbCluster tc = clusterWithStatus();
    TidbCluster copy = cloner.clone(tc);
    assertNotSame(tc, copy);
    assertEquals(serialization.clone(tc), copy);
    assertEquals(serialization.asJson(tc), serialization.asJson(copy), "no field lost or changed");
  }

  @Test
  void theCopySharesNothingWithTheOriginal() {
    TidbCluster tc = clusterWithStatus();
    String before = serialization.asJson(tc);
    TidbCluster copy = cloner.clone(tc);
    copy.getMetadata().getLabels().put("team", "changed");
    copy.getSpec().getPd().setReplicas(99);
    copy.getStatus().getConditions().get(0).setStatus("False");
    copy.getStatus().getConditions().add(new ConditionBuilder().withType("Valid").build());
    assertEquals(before, serialization.asJson(tc), "the original (JOSDK's cached object) is untouched");
  }

  @Test
  void aKindReadOnlyByItsReconcilerIsHandedOutUncopied() {
    TidbMonitor monitor = new TidbMonitor();
    monitor.setMetadata(new ObjectMetaBuilder().withName("mon").withNamespace("db").build());
    assertSame(monitor, cloner.clone(monitor));
    TidbCluster tc = clusterWithStatus();
    assertNotSame(tc, cloner.clone(tc), "other kinds are still copied");
  }
}
