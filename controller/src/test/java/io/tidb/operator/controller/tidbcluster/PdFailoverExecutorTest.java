package io.tidb.operator.controller.tidbcluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSetStatusBuilder;
import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.v1alpha1.cluster.PdMember;
import io.tidb.operator.api.v1alpha1.cluster.PdStatus;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.cluster.TidbClusterStatus;
import io.tidb.operator.controller.fixtures.ClusterContexts;
import io.tidb.operator.controller.fixtures.FakeApplier;
import io.tidb.operator.controller.fixtures.FakeClusterApi;
import io.tidb.operator.controller.fixtures.FakeOwnedObjects;
import io.tidb.operator.controller.fixtures.FakeDeletions;
import io.tidb.operator.controller.fixtures.FakeVolumeClaims;
import io.tidb.operator.controller.fixtures.RecordingEventRecorder;
import io.tidb.operator.controller.fixtures.TestClusters;
import io.tidb.operator.controller.runtime.ResourceContext;
import io.tidb.operator.controller.tidbcluster.pd.PdStep;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterContext;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * PD failover through {@code MemberStep} with in-memory fakes: basic-pd-2 unhealthy for ten
 * minutes is recorded in one reconcile, deleted by id (with its pod and claims) in the next, and
 * the StatefulSet gets a fourth replica; a 500 from PD deletes nothing.
 */
class PdFailoverExecutorTest {

  private static final String STS = "basic-pd";

  private final PdStep step = new PdStep();
  private final FakeClusterApi api = new FakeClusterApi();
  private final FakeVolumeClaims claims = new FakeVolumeClaims();
  private final FakeDeletions deletions = new FakeDeletions();
  private final RecordingEventRecorder events = new RecordingEventRecorder();
  private TidbClusterStatus status = new TidbClusterStatus();

  private static TidbCluster cluster() {
    TidbCluster tc = TestClusters.load("basic");
    tc.getMetadata().setGeneration(7L);
    tc.getMetadata().setNamespace("db");
    tc.getSpec().getPd().setReplicas(3);
    tc.getSpec().getPd().setMaxFailoverCount(3);
    return tc;
  }

  private void reconcile(FakeOwnedObjects owned) throws Exception {
    ClusterContext ctx =
        new ClusterContext(
            new ResourceContext<>(cluster(), cluster(), status, owned, new FakeApplier(), events,
                ClusterContexts.NOW),
            api,
            claims,
            deletions);
    step.observe(ctx);
    step.apply(ctx);
  }

  private static Pod pod(int ordinal) {
    return new PodBuilder()
        .withNewMetadata()
        .withName(STS + "-" + ordinal)
        .withUid("pod-" + ordinal)
        .withCreationTimestamp("2025-12-31T00:00:00Z")
        .withLabels(Map.of("controller-revision-hash", "r1"))
        .endMetadata()
        .withNewSpec().addNewContainer().withName("pd").withImage("pingcap/pd:v8.5.7")
        .endContainer().endSpec()
        .withNewStatus()
        .addNewCondition().withType("Ready").withStatus("True")
        .withLastTransitionTime("2025-12-31T00:01:00Z").endCondition()
        .endStatus()
        .build();
  }

  /** A settled PD of 3 (revision r1, pods Ready), basic-pd-2 unhealthy for ten minutes. */
  private FakeOwnedObjects settledWithUnhealthyPd2() throws Exception {
    FakeOwnedObjects created = new FakeOwnedObjects();
    reconcile(created);
    StatefulSet sts = ApiObjects.deepCopy(created.get(StatefulSet.class, STS).orElseThrow());
    sts.getMetadata().setGeneration(1L);
    sts.setStatus(new StatefulSetStatusBuilder().withReplicas(3).withReadyReplicas(3)
        .withObservedGeneration(1L).withCurrentRevision("r1").withUpdateRevision("r1").build());
    FakeOwnedObjects owned = new FakeOwnedObjects().add(sts);
    created.get(ConfigMap.class, sts.getSpec().getTemplate().getSpec().getVolumes().stream()
            .filter(v -> "config".equals(v.getName())).findFirst().orElseThrow()
            .getConfigMap().getName())
        .ifPresent(owned::add);
    for (int i = 0; i < 3; i++) {
      owned.add(pod(i));
    }
    claims.add("pd-basic-pd-2", Map.of(), Map.of());
    api.healthyPd = 2;
    status = new TidbClusterStatus();
    PdStatus pd = new PdStatus();
    Map<String, PdMember> members = new TreeMap<>();
    for (int i = 0; i < 3; i++) {
      PdMember m = new PdMember();
      m.setName(STS + "-" + i);
      m.setId(String.valueOf(100 + i));
      m.setHealth(i < 2);
      m.setLastTransitionTime(ClusterContexts.NOW.minusSeconds(600).toString());
      members.put(m.getName(), m);
    }
    pd.setMembers(members);
    status.setPd(pd);
    events.events.clear();
    return owned;
  }

  @Test
  void recordedThenDeletedByIdWithItsPodAndClaimsThenAFourthReplica() throws Exception {
    FakeOwnedObjects owned = settledWithUnhealthyPd2();
    reconcile(owned);
    assertEquals(List.of(), api.mutations, "recording asks PD for nothing");
    var record = status.getPd().getFailureMembers().get("basic-pd-2");
    assertEquals("102", record.getMemberID());
    assertFalse(record.getMemberDeleted());
    assertTrue(events.reasons().contains("PDMemberUnhealthy"), events.reasons().toString());
    assertEquals(3, owned.get(StatefulSet.class, STS).orElseThrow().getSpec().getReplicas());

    reconcile(owned);
    assertEquals(List.of("delete member id 102"), api.mutations);
    assertTrue(deletions.calls.stream().anyMatch(c -> c.startsWith("pod basic-pd-2 ")),
        deletions.calls.toString());
    assertTrue(claims.calls.contains("delete pd-basic-pd-2"), claims.calls.toString());
    assertTrue(status.getPd().getFailureMembers().get("basic-pd-2").getMemberDeleted());
    assertTrue(events.reasons().contains("PDMemberDeleted"), events.reasons().toString());
    assertEquals(4, owned.get(StatefulSet.class, STS).orElseThrow().getSpec().getReplicas());
  }

  @Test
  void aPdErrorDeletesNothing() throws Exception {
    FakeOwnedObjects owned = settledWithUnhealthyPd2();
    reconcile(owned);
    api.failMemberDeletes = true;
    assertThrows(IOException.class, () -> reconcile(owned));
    assertFalse(claims.calls.stream().anyMatch(c -> c.startsWith("delete")), claims.calls.toString());
    assertEquals(List.of(), deletions.calls);
    assertFalse(status.getPd().getFailureMembers().get("basic-pd-2").getMemberDeleted());
    assertEquals(3, owned.get(StatefulSet.class, STS).orElseThrow().getSpec().getReplicas());
  }

  @Test
  void noFailoverWithoutQuorum() throws Exception {
    FakeOwnedObjects owned = settledWithUnhealthyPd2();
    api.healthyPd = 1;
    status.getPd().getMembers().get("basic-pd-1").setHealth(false);
    reconcile(owned);
    assertEquals(null, status.getPd().getFailureMembers());
    assertEquals(List.of(), api.mutations);
  }

  /** basic-pd-2 recorded, then (the operator having stopped) a new pod of that name. */
  private FakeOwnedObjects recordedThenRecreated() throws Exception {
    FakeOwnedObjects owned = settledWithUnhealthyPd2();
    reconcile(owned);
    var record = status.getPd().getFailureMembers().get("basic-pd-2");
    record.setCreatedAt(ClusterContexts.NOW.minusSeconds(60).toString());
    owned.replace(new PodBuilder(pod(2)).editMetadata().withUid("pod-2-new")
        .withCreationTimestamp(ClusterContexts.NOW.minusSeconds(10).toString()).endMetadata()
        .build());
    return owned;
  }

  @Test
  void aPodCreatedAfterTheRecordOnNewClaimsIsTheReplacementAndStays() throws Exception {
    FakeOwnedObjects owned = recordedThenRecreated();
    claims.claims.get("pd-basic-pd-2").getMetadata().setUid("uid-new-claim");
    reconcile(owned);
    assertEquals(List.of("delete member id 102"), api.mutations);
    assertEquals(List.of(), deletions.calls, "the replacement pod is not deleted");
    assertFalse(claims.calls.stream().anyMatch(c -> c.startsWith("delete")), claims.calls.toString());
    assertTrue(status.getPd().getFailureMembers().get("basic-pd-2").getMemberDeleted());
  }

  @Test
  void aPodCreatedAfterTheRecordOnTheFailedClaimsIsDeletedAgain() throws Exception {
    FakeOwnedObjects owned = recordedThenRecreated();
    reconcile(owned);
    assertEquals(List.of("pod basic-pd-2 pod-2-new"), deletions.calls);
    assertTrue(claims.calls.contains("delete pd-basic-pd-2"), claims.calls.toString());
  }
}
