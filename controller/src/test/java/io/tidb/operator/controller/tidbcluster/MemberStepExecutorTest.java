package io.tidb.operator.controller.tidbcluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSetStatusBuilder;
import io.tidb.operator.api.ApiObjects;
import io.tidb.operator.api.v1alpha1.cluster.StorageVolume;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.cluster.TidbClusterStatus;
import io.tidb.operator.controller.fixtures.ClusterContexts;
import io.tidb.operator.controller.fixtures.FakeApplier;
import io.tidb.operator.controller.fixtures.FakeClusterApi;
import io.tidb.operator.controller.fixtures.FakeDeletions;
import io.tidb.operator.controller.fixtures.FakeOwnedObjects;
import io.tidb.operator.controller.fixtures.FakeVolumeClaims;
import io.tidb.operator.controller.fixtures.RecordingEventRecorder;
import io.tidb.operator.controller.fixtures.TestClusters;
import io.tidb.operator.controller.runtime.ResourceContext;
import io.tidb.operator.controller.tidbcluster.member.VolumeActions;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterContext;
import io.tidb.operator.controller.tidbcluster.pipeline.Prerequisite;
import io.tidb.operator.controller.tidbcluster.pipeline.StepResult;
import io.tidb.operator.controller.tidbcluster.tidb.TidbStep;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code MemberStep} carrying out decisions, on TiDB (no PD calls) with in-memory fakes: the
 * StatefulSet's replicas and partition, the claims of removed pods, conditions and Events.
 */
class MemberStepExecutorTest {

  private static final String STS = "basic-tidb";
  private static final String CLAIM_2 = "tidb-data-basic-tidb-2";

  private final TidbStep step = new TidbStep(Prerequisite.NONE);
  private final FakeClusterApi api = new FakeClusterApi();
  private final FakeVolumeClaims claims = new FakeVolumeClaims();
  private final FakeDeletions deletions = new FakeDeletions();
  private final RecordingEventRecorder events = new RecordingEventRecorder();
  private TidbClusterStatus status = new TidbClusterStatus();
  private List<Object> world;

  private static TidbCluster cluster(int replicas) {
    TidbCluster tc = TestClusters.load("basic");
    tc.getMetadata().setGeneration(7L);
    tc.getSpec().getTidb().setReplicas(replicas);
    StorageVolume data = new StorageVolume();
    data.setName("data");
    data.setStorageSize("1Gi");
    data.setMountPath("/data");
    tc.getSpec().getTidb().setStorageVolumes(List.of(data));
    return tc;
  }

  @BeforeEach
  void healthyTidb() {
    api.healthyTidb = Set.of("basic-tidb-0", "basic-tidb-1", "basic-tidb-2");
  }

  /** One reconcile of the TiDB step over {@code owned}; what it applied is in the returned set. */
  private StepResult reconcile(TidbCluster tc, FakeOwnedObjects owned) throws Exception {
    ClusterContext ctx =
        new ClusterContext(
            new ResourceContext<>(tc, tc, status, owned, new FakeApplier(), events, ClusterContexts.NOW),
            api,
            claims,
            deletions);
    step.observe(ctx);
    return step.apply(ctx);
  }

  /** Brings the TiDB StatefulSet up for {@code tc}, settled at revision r1 with Ready pods. */
  private FakeOwnedObjects settled(TidbCluster tc, int partition) throws Exception {
    FakeOwnedObjects created = new FakeOwnedObjects();
    reconcile(tc, created);
    StatefulSet sts = created.get(StatefulSet.class, STS).orElseThrow();
    sts = ApiObjects.deepCopy(sts);
    sts.getMetadata().setGeneration(1L);
    sts.getSpec().getUpdateStrategy().getRollingUpdate().setPartition(partition);
    int replicas = sts.getSpec().getReplicas();
    sts.setStatus(new StatefulSetStatusBuilder().withReplicas(replicas).withReadyReplicas(replicas)
        .withObservedGeneration(1L).withCurrentRevision("r1")
        .withUpdateRevision(partition < replicas ? "r2" : "r1").build());
    FakeOwnedObjects owned = new FakeOwnedObjects().add(sts);
    created.get(ConfigMap.class, sts.getSpec().getTemplate().getSpec().getVolumes().stream()
            .filter(v -> "config".equals(v.getName())).findFirst().orElseThrow()
            .getConfigMap().getName())
        .ifPresent(owned::add);
    for (int i = 0; i < replicas; i++) {
      owned.add(pod(i, i >= partition ? "r2" : "r1"));
    }
    status = new TidbClusterStatus();
    return owned;
  }

  private static Pod pod(int ordinal, String revision) {
    return new PodBuilder()
        .withNewMetadata()
        .withName(STS + "-" + ordinal)
        .withUid("pod-" + ordinal)
        .withCreationTimestamp("2025-12-31T00:00:00Z")
        .withLabels(Map.of("controller-revision-hash", revision))
        .endMetadata()
        .withNewSpec().addNewContainer().withName("tidb").withImage("pingcap/tidb:v8.5.7")
        .endContainer().endSpec()
        .withNewStatus()
        .addNewCondition().withType("Ready").withStatus("True")
        .withLastTransitionTime("2025-12-31T00:01:00Z").endCondition()
        .endStatus()
        .build();
  }

  private static int partitionOf(StatefulSet sts) {
    return sts.getSpec().getUpdateStrategy().getRollingUpdate().getPartition();
  }

  private StatefulSet applied(FakeOwnedObjects owned) {
    return owned.get(StatefulSet.class, STS).orElseThrow();
  }

  // --- care: suspend and the graceful-shutdown annotation ---

  @Test
  void suspendDeletesTheStatefulSetAndHoldsTheComponent() throws Exception {
    FakeOwnedObjects owned = settled(cluster(3), 3);
    applied(owned).getMetadata().setUid("sts-uid");
    TidbCluster tc = cluster(3);
    io.tidb.operator.api.v1alpha1.cluster.SuspendAction a =
        new io.tidb.operator.api.v1alpha1.cluster.SuspendAction();
    a.setSuspendStatefulSet(true);
    tc.getSpec().setSuspendAction(a);
    StepResult result = reconcile(tc, owned);

    assertEquals(List.of("statefulset basic-tidb sts-uid"), deletions.calls);
    assertEquals("Suspend", status.getTidb().getPhase());
    Condition c = status.getTidb().getConditions().stream()
        .filter(x -> "Suspended".equals(x.getType())).findFirst().orElseThrow();
    assertEquals("True", c.getStatus());
    assertTrue(events.reasons().contains("StatefulSetSuspended"), events.reasons().toString());
    assertInstanceOf(StepResult.InProgress.class, result);

    // gone: suspended, nothing more is deleted or applied
    FakeOwnedObjects gone = new FakeOwnedObjects();
    deletions.calls.clear();
    assertEquals(StepResult.CONTINUE, reconcile(tc, gone));
    assertEquals(List.of(), deletions.calls);
    assertTrue(gone.get(StatefulSet.class, STS).isEmpty(), "no StatefulSet is created");
    assertEquals("Suspend", status.getTidb().getPhase());

    // resumed: the StatefulSet is created again and the condition goes
    tc.getSpec().getSuspendAction().setSuspendStatefulSet(false);
    reconcile(tc, gone);
    assertTrue(gone.get(StatefulSet.class, STS).isPresent());
    assertTrue(status.getTidb().getConditions() == null || status.getTidb().getConditions()
        .stream().noneMatch(x -> "Suspended".equals(x.getType())));
  }

  @Test
  void gracefulShutdownDeletesTheAnnotatedPod() throws Exception {
    FakeOwnedObjects owned = settled(cluster(3), 3);
    Pod p = owned.podsOf(STS).stream()
        .filter(x -> x.getMetadata().getName().equals("basic-tidb-1")).findFirst().orElseThrow();
    p.getMetadata().setAnnotations(Map.of("tidb.pingcap.com/tidb-graceful-shutdown", "delete-pod"));
    reconcile(cluster(3), owned);
    assertEquals(List.of("pod basic-tidb-1 pod-1"), deletions.calls);
    assertTrue(events.reasons().contains("PodDeleted"), events.reasons().toString());
  }

  @Test
  void scaleInMarksTheRemovedPodsClaimsBeforeLoweringReplicasAndHoldsThePartitionAtThem()
      throws Exception {
    FakeOwnedObjects owned = settled(cluster(3), 3);
    claims.add(CLAIM_2, Map.of(), Map.of());
    StepResult result = reconcile(cluster(2), owned);

    StatefulSet sts = applied(owned);
    assertEquals(2, sts.getSpec().getReplicas());
    assertEquals(2, partitionOf(sts), "not rolling: the partition holds at the new replicas");
    assertEquals(List.of("annotate " + CLAIM_2 + " " + VolumeActions.DEFER_DELETING), claims.calls);
    assertTrue(events.reasons().contains("ScaledIn"), events.reasons().toString());
    assertInstanceOf(StepResult.InProgress.class, result);
  }

  @Test
  void aScaleDuringARolloutNeverRaisesThePartition() throws Exception {
    FakeOwnedObjects owned = settled(cluster(3), 2);
    reconcile(cluster(2), owned);
    StatefulSet sts = applied(owned);
    assertEquals(2, sts.getSpec().getReplicas());
    assertEquals(2, partitionOf(sts), "pod 2 was already released; the partition stays at 2");

    FakeOwnedObjects rolling = settled(cluster(3), 1);
    reconcile(cluster(4), rolling);
    assertEquals(4, applied(rolling).getSpec().getReplicas());
    assertEquals(1, partitionOf(applied(rolling)), "scale-out keeps a released partition too");
  }

  @Test
  void aNewTemplateIsAppliedHeldBeforeAnyPodIsReleased() throws Exception {
    FakeOwnedObjects owned = settled(cluster(3), 3);
    TidbCluster upgraded = cluster(3);
    upgraded.getSpec().setVersion("v8.5.8");
    reconcile(upgraded, owned);

    StatefulSet sts = applied(owned);
    assertEquals(3, partitionOf(sts), "held: no pod restarts before the template is observed");
    assertTrue(sts.getSpec().getTemplate().getSpec().getContainers().stream()
        .anyMatch(c -> c.getImage().endsWith("tidb:v8.5.8")));
    Condition upgrade = status.getTidb().getConditions().stream()
        .filter(c -> "Upgrade".equals(c.getType())).findFirst().orElseThrow();
    assertEquals("True", upgrade.getStatus());
    assertEquals(7L, upgrade.getObservedGeneration());
    assertTrue(upgrade.getMessage().contains("applying the new pod template"), upgrade.getMessage());
  }

  @Test
  void anObservedRolloutReleasesTheHighestOldPodUnlessThePartitionAnnotationHoldsIt()
      throws Exception {
    // Revision r2 is the update revision; pod 2 has it, pods 0 and 1 do not.
    FakeOwnedObjects owned = settled(cluster(3), 2);
    reconcile(cluster(3), owned);
    assertEquals(1, partitionOf(applied(owned)));
    assertTrue(events.events.stream().anyMatch(e ->
        "RollingUpdate".equals(e.reason()) && e.message().contains("upgrading basic-tidb-1")));

    FakeOwnedObjects held = settled(cluster(3), 2);
    TidbCluster annotated = cluster(3);
    annotated.getMetadata().setAnnotations(Map.of("tidb.pingcap.com/tidb-partition", "2"));
    reconcile(annotated, held);
    assertEquals(2, partitionOf(applied(held)));
    assertTrue(status.getTidb().getConditions().stream()
        .anyMatch(c -> c.getMessage().contains("tidb.pingcap.com/tidb-partition")));
  }

  @Test
  void aFinishedRolloutPutsThePartitionBackAndSaysUpgraded() throws Exception {
    FakeOwnedObjects owned = settled(cluster(3), 3);
    List<Condition> conditions = new ArrayList<>();
    Condition c = new Condition();
    c.setType("Upgrade");
    c.setStatus("True");
    conditions.add(c);
    status.setTidb(new io.tidb.operator.api.v1alpha1.cluster.TidbStatus());
    status.getTidb().setConditions(conditions);
    StepResult result = reconcile(cluster(3), owned);
    assertEquals(StepResult.CONTINUE, result);
    assertTrue(events.reasons().contains("Upgraded"), events.reasons().toString());
    assertTrue(status.getTidb().getConditions() == null
        || status.getTidb().getConditions().stream().noneMatch(x -> "Upgrade".equals(x.getType())));
  }

  // --- failover hooks (TiDB) -------------------------------------------------------------

  /** {@link #cluster} with {@code spec.tidb.maxFailoverCount: 3} (the default). */
  private static TidbCluster failover(int replicas) {
    TidbCluster tc = cluster(replicas);
    tc.getSpec().getTidb().setMaxFailoverCount(3);
    return tc;
  }

  /** Settled at 2 replicas, basic-tidb-1 unhealthy since 10 minutes before now, pods scheduled. */
  private FakeOwnedObjects withUnhealthyTidb1() throws Exception {
    FakeOwnedObjects owned = settled(failover(2), 2);
    for (int i = 0; i < 2; i++) {
      Pod pod = owned.get(Pod.class, STS + "-" + i).orElseThrow();
      pod.getStatus().getConditions().add(
          new io.fabric8.kubernetes.api.model.PodConditionBuilder().withType("PodScheduled")
              .withStatus("True").build());
    }
    api.healthyTidb = Set.of("basic-tidb-0");
    io.tidb.operator.api.v1alpha1.cluster.TidbStatus tidb =
        new io.tidb.operator.api.v1alpha1.cluster.TidbStatus();
    io.tidb.operator.api.v1alpha1.cluster.TidbMember m =
        new io.tidb.operator.api.v1alpha1.cluster.TidbMember();
    m.setName("basic-tidb-1");
    m.setHealth(false);
    m.setLastTransitionTime(ClusterContexts.NOW.minusSeconds(600).toString());
    tidb.setMembers(new java.util.TreeMap<>(Map.of("basic-tidb-1", m)));
    status.setTidb(tidb);
    return owned;
  }

  @Test
  void aTidbFailoverRecordAddsAReplicaInTheSameReconcile() throws Exception {
    FakeOwnedObjects owned = withUnhealthyTidb1();
    reconcile(failover(2), owned);
    assertEquals(Set.of("basic-tidb-1"), status.getTidb().getFailureMembers().keySet());
    assertEquals(3, applied(owned).getSpec().getReplicas());
    assertTrue(events.reasons().contains("Unhealthy"), events.reasons().toString());
    assertTrue(events.reasons().contains("ScaledOut"), events.reasons().toString());
  }

  @Test
  void noTidbFailoverWithoutAutoFailover() throws Exception {
    FakeOwnedObjects owned = withUnhealthyTidb1();
    step.useFailover(new io.tidb.operator.controller.config.FailoverSettings(
        false, java.time.Duration.ofMinutes(5), java.time.Duration.ofMinutes(5),
        java.time.Duration.ofMinutes(5)));
    reconcile(failover(2), owned);
    assertEquals(null, status.getTidb().getFailureMembers());
    assertEquals(2, applied(owned).getSpec().getReplicas());
  }

  @Test
  void noTidbFailoverWhileScalingIn() throws Exception {
    FakeOwnedObjects owned = withUnhealthyTidb1();
    reconcile(failover(1), owned);
    assertEquals(null, status.getTidb().getFailureMembers());
    assertEquals(1, applied(owned).getSpec().getReplicas());
  }

  @Test
  void aRecordedReplacementIsNotScaledInAndGoesWhenTheServerIsHealthyAgain() throws Exception {
    FakeOwnedObjects owned = withUnhealthyTidb1();
    reconcile(failover(2), owned);
    assertEquals(3, applied(owned).getSpec().getReplicas());
    // the replacement runs and basic-tidb-1 is still unhealthy: the replicas stay at 3
    StatefulSet sts = applied(owned);
    sts.setStatus(new StatefulSetStatusBuilder().withReplicas(3).withReadyReplicas(3)
        .withObservedGeneration(sts.getMetadata().getGeneration()).withCurrentRevision("r1")
        .withUpdateRevision("r1").build());
    owned.add(pod(2, "r1"));
    api.healthyTidb = Set.of("basic-tidb-0", "basic-tidb-2");
    reconcile(failover(2), owned);
    assertEquals(3, applied(owned).getSpec().getReplicas());
    assertEquals(Set.of("basic-tidb-1"), status.getTidb().getFailureMembers().keySet());
    // healthy again: the record goes, and the replacement is scaled in
    api.healthyTidb = Set.of("basic-tidb-0", "basic-tidb-1", "basic-tidb-2");
    reconcile(failover(2), owned);
    assertEquals(null, status.getTidb().getFailureMembers());
    assertEquals(2, applied(owned).getSpec().getReplicas());
    assertTrue(events.reasons().contains("FailoverRecovered"), events.reasons().toString());
  }
}
