package io.tidb.operator.controller.tidbcluster.member;

import static io.tidb.operator.controller.fixtures.Rollouts.OLD;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder;
import io.tidb.operator.api.v1alpha1.cluster.TidbCluster;
import io.tidb.operator.api.v1alpha1.cluster.TikvStatus;
import io.tidb.operator.controller.fixtures.ClusterContexts;
import io.tidb.operator.controller.fixtures.FakeApplier;
import io.tidb.operator.controller.fixtures.FakeClusterApi;
import io.tidb.operator.controller.fixtures.FakeOwnedObjects;
import io.tidb.operator.controller.fixtures.FakeVolumeClaims;
import io.tidb.operator.controller.fixtures.RecordingEventRecorder;
import io.tidb.operator.controller.fixtures.Rollouts;
import io.tidb.operator.controller.fixtures.TestClusters;
import io.tidb.operator.api.v1alpha1.cluster.TidbClusterStatus;
import io.tidb.operator.controller.runtime.ResourceContext;
import io.tidb.operator.controller.tidbcluster.pipeline.CheckedVolumes;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterContext;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * {@link VolumeCare}'s care of the PersistentVolumes: set and labelled on the first reconcile, and
 * not read again by the following ones until what they must carry changes or {@link
 * CheckedVolumes#RECHECK} has passed (issue 19: a settled reconcile reads nothing).
 */
class VolumeCareTest {

  private static final Map<String, String> SELECTOR = Map.of(
      "app.kubernetes.io/name", "tidb-cluster",
      "app.kubernetes.io/managed-by", "tidb-operator",
      "app.kubernetes.io/instance", "basic",
      "app.kubernetes.io/component", "tikv");

  private final FakeVolumeClaims claims = new FakeVolumeClaims();
  private final TidbCluster tc = TestClusters.load("basic");

  VolumeCareTest() {
    claims.claims.put("tikv-basic-tikv-0", claim("uid-0", Map.of()));
    claims.volumes.put("pv-0", new PersistentVolumeBuilder()
        .withNewMetadata().withName("pv-0").withResourceVersion("1").endMetadata()
        .withNewSpec().withPersistentVolumeReclaimPolicy("Delete").endSpec()
        .build());
    tc.getSpec().setPvReclaimPolicy("Retain");
  }

  /** The volume as someone else rewrote it: {@code policy}, resource version {@code version}. */
  private PersistentVolume rewritten(String policy, String version) {
    return new PersistentVolumeBuilder(claims.volumes.get("pv-0"))
        .editMetadata().withResourceVersion(version).endMetadata()
        .editSpec().withPersistentVolumeReclaimPolicy(policy).endSpec().build();
  }

  private static PersistentVolumeClaim claim(String uid, Map<String, String> extraLabels) {
    Map<String, String> labels = new java.util.TreeMap<>(SELECTOR);
    labels.putAll(extraLabels);
    return new PersistentVolumeClaimBuilder()
        .withNewMetadata().withName("tikv-basic-tikv-0").withUid(uid).withLabels(labels)
        .endMetadata()
        .withNewSpec().withVolumeName("pv-0").endSpec()
        .build();
  }

  /** A claim created 30 seconds ago, in {@code phase}. */
  private static PersistentVolumeClaim youngClaim(String phase) {
    return new PersistentVolumeClaimBuilder(claim("uid-0", Map.of()))
        .editMetadata().withCreationTimestamp(ClusterContexts.NOW.minusSeconds(30).toString())
        .endMetadata()
        .withNewStatus().withPhase(phase).endStatus()
        .build();
  }

  private static StatefulSet tikv() {
    return new StatefulSetBuilder()
        .withNewMetadata().withName("basic-tikv").endMetadata()
        .withNewSpec()
        .withReplicas(1)
        .withNewSelector().withMatchLabels(SELECTOR).endSelector()
        .addNewVolumeClaimTemplate().withNewMetadata().withName("tikv").endMetadata()
        .endVolumeClaimTemplate()
        .endSpec()
        .build();
  }

  private Optional<java.time.Duration> reconcileAt(Instant now) {
    return reconcileAt(now, Map.of());
  }

  /** Runs the volume care and returns the recheck it asked for. */
  private Optional<java.time.Duration> reconcileAt(Instant now, Map<String, Map<String, String>> idLabels) {
    ClusterContext ctx = new ClusterContext(
        new ResourceContext<>(tc, tc, new TidbClusterStatus(), new FakeOwnedObjects(),
            new FakeApplier(), new RecordingEventRecorder(), now),
        new FakeClusterApi(),
        claims);
    VolumeCare.sync(ctx, new TikvStatus(), new VolumeCare.Request("TiKV", tikv(), null,
        Rollouts.rollout("basic-tikv", 1).ready(0, OLD).build(), false, Optional.empty(),
        idLabels));
    return ctx.recheckAfter();
  }

  @Test
  void aVolumeFoundRightIsNotReadAgain() {
    reconcileAt(ClusterContexts.NOW);
    assertEquals(List.of("pv-0"), claims.volumeReads);
    assertEquals("Retain", claims.volumes.get("pv-0").getSpec().getPersistentVolumeReclaimPolicy());
    assertEquals("basic", claims.volumes.get("pv-0").getMetadata().getLabels()
        .get("app.kubernetes.io/instance"));
    int writes = claims.calls.size();

    reconcileAt(ClusterContexts.NOW.plusSeconds(30));
    reconcileAt(ClusterContexts.NOW.plusSeconds(60));
    assertEquals(List.of("pv-0"), claims.volumeReads, "settled reconciles read no volume");
    assertEquals(writes, claims.calls.size());
  }

  @Test
  void aVolumeIsReadAgainWhenWhatItMustCarryChanges() {
    reconcileAt(ClusterContexts.NOW);

    tc.getSpec().setPvReclaimPolicy("Delete");
    reconcileAt(ClusterContexts.NOW.plusSeconds(30));
    assertEquals(List.of("pv-0", "pv-0"), claims.volumeReads, "the policy changed");
    assertEquals("Delete", claims.volumes.get("pv-0").getSpec().getPersistentVolumeReclaimPolicy());

    claims.claims.put("tikv-basic-tikv-0", claim("uid-0", Map.of("tidb.pingcap.com/store-id", "4")));
    reconcileAt(ClusterContexts.NOW.plusSeconds(60));
    assertEquals(2, claims.volumeReads.size(), "the claim's new label is written without a read");
    assertEquals("4", claims.volumes.get("pv-0").getMetadata().getLabels()
        .get("tidb.pingcap.com/store-id"));

    claims.claims.put("tikv-basic-tikv-0", claim("uid-new", Map.of("tidb.pingcap.com/store-id", "4")));
    reconcileAt(ClusterContexts.NOW.plusSeconds(90));
    assertEquals(3, claims.volumeReads.size(), "another claim is bound to the volume");
  }

  @Test
  void aClaimsNewLabelReachesItsVolumeWithoutARead() {
    reconcileAt(ClusterContexts.NOW);
    int writes = claims.calls.size();

    claims.claims.put("tikv-basic-tikv-0", claim("uid-0", Map.of("tidb.pingcap.com/store-id", "4")));
    reconcileAt(ClusterContexts.NOW.plusSeconds(30));
    assertEquals(List.of("pv-0"), claims.volumeReads);
    assertEquals(List.of("reclaim-policy pv-0 Retain", "label-volume pv-0 {tidb.pingcap.com/store-id=4} {}"),
        claims.calls.subList(writes, claims.calls.size()), "the new label, with the policy, in one patch");
    assertEquals("4", claims.volumes.get("pv-0").getMetadata().getLabels()
        .get("tidb.pingcap.com/store-id"));
    assertEquals("Retain", claims.volumes.get("pv-0").getSpec().getPersistentVolumeReclaimPolicy());

    reconcileAt(ClusterContexts.NOW.plusSeconds(60));
    assertEquals(writes + 2, claims.calls.size(), "then nothing");
  }

  @Test
  void aNewClaimsVolumeIsPatchedWithEverythingWithoutARead() {
    claims.claims.put("tikv-basic-tikv-0", youngClaim("Bound"));
    reconcileAt(ClusterContexts.NOW);
    assertEquals(List.of(), claims.volumeReads);
    assertEquals("Retain", claims.volumes.get("pv-0").getSpec().getPersistentVolumeReclaimPolicy());
    assertEquals(Map.of(
        "app.kubernetes.io/namespace", "default",
        "app.kubernetes.io/managed-by", "tidb-operator",
        "app.kubernetes.io/instance", "basic",
        "app.kubernetes.io/component", "tikv",
        "app.kubernetes.io/name", "tidb-cluster"), claims.volumes.get("pv-0").getMetadata().getLabels());
    int writes = claims.calls.size();
    reconcileAt(ClusterContexts.NOW.plusSeconds(10));
    assertEquals(writes, claims.calls.size(), "patched right: nothing more");
    assertEquals(List.of(), claims.volumeReads);
    reconcileAt(ClusterContexts.NOW.plusSeconds(30));
    assertEquals(writes, claims.calls.size(), "read once, found right: nothing more");
    assertEquals(List.of("pv-0"), claims.volumeReads);
  }

  @Test
  void aNewClaimsVolumeRewrittenByItsProvisionerIsReadOnceSecondsLaterAndRepaired() {
    claims.claims.put("tikv-basic-tikv-0", youngClaim("Bound"));
    reconcileAt(ClusterContexts.NOW);
    // kwok's provisioner force-applies the volume it made, its reclaim policy included.
    claims.volumes.get("pv-0").getSpec().setPersistentVolumeReclaimPolicy("Delete");
    reconcileAt(ClusterContexts.NOW.plus(CheckedVolumes.UNREAD_TRUST).minusSeconds(1));
    assertEquals(List.of(), claims.volumeReads, "trusted for a while after the unread patch");

    reconcileAt(ClusterContexts.NOW.plus(CheckedVolumes.UNREAD_TRUST));
    assertEquals(List.of("pv-0"), claims.volumeReads, "then read, not patched blindly again");
    assertEquals("Retain", claims.volumes.get("pv-0").getSpec().getPersistentVolumeReclaimPolicy());
    int writes = claims.calls.size();
    reconcileAt(ClusterContexts.NOW.plus(CheckedVolumes.UNREAD_TRUST).plusSeconds(30));
    assertEquals(writes, claims.calls.size(), "found right after the read: nothing more");
    assertEquals(List.of("pv-0"), claims.volumeReads);
  }

  @Test
  void aVolumePatchedWithoutAReadBringsAReconcileWhenItIsToBeRead() {
    claims.claims.put("tikv-basic-tikv-0", youngClaim("Bound"));
    assertEquals(Optional.of(CheckedVolumes.UNREAD_TRUST), reconcileAt(ClusterContexts.NOW),
        "the next reconcile comes when the volume is to be read, not at the next heartbeat");
    assertEquals(Optional.of(CheckedVolumes.UNREAD_TRUST.minusSeconds(10)),
        reconcileAt(ClusterContexts.NOW.plusSeconds(10)), "what is left of the trust");
    assertEquals(Optional.empty(), reconcileAt(ClusterContexts.NOW.plus(CheckedVolumes.UNREAD_TRUST)),
        "read and found right: no recheck asked");
    assertEquals(List.of("pv-0"), claims.volumeReads);
  }

  @Test
  void aNewClaimNotBoundYetIsLeftForItsBinding() {
    claims.claims.put("tikv-basic-tikv-0", youngClaim("Pending"));
    reconcileAt(ClusterContexts.NOW);
    assertEquals(List.of(), claims.calls);
    assertEquals(List.of(), claims.volumeReads);
  }

  @Test
  void aNewClaimsVolumeNotThereYetIsTriedAgain() {
    claims.claims.put("tikv-basic-tikv-0", youngClaim("Bound"));
    PersistentVolume pv = claims.volumes.remove("pv-0");
    reconcileAt(ClusterContexts.NOW);
    claims.volumes.put("pv-0", pv);
    reconcileAt(ClusterContexts.NOW.plusSeconds(5));
    assertEquals(List.of("update-missing-volume pv-0", "reclaim-policy pv-0 Retain"),
        claims.calls.subList(0, 2));
    assertEquals("Retain", claims.volumes.get("pv-0").getSpec().getPersistentVolumeReclaimPolicy());
  }

  @Test
  void refusedVolumePatchesAreNotRetriedForFiveMinutes() {
    claims.claims.put("tikv-basic-tikv-0", youngClaim("Bound"));
    claims.volumeWritesForbidden = true;
    reconcileAt(ClusterContexts.NOW);
    reconcileAt(ClusterContexts.NOW.plus(CheckedVolumes.FORBIDDEN_BACKOFF).minusSeconds(1));
    assertEquals(List.of("update-forbidden-volume pv-0"), claims.calls, "the claim is still labelled; the volume left alone");

    claims.volumeWritesForbidden = false;
    claims.claims.put("tikv-basic-tikv-0", claim("uid-0", Map.of()));
    reconcileAt(ClusterContexts.NOW.plus(CheckedVolumes.FORBIDDEN_BACKOFF));
    assertEquals("Retain", claims.volumes.get("pv-0").getSpec().getPersistentVolumeReclaimPolicy(),
        "tried again after five minutes (the RBAC was fixed)");
  }

  @Test
  void aClaimOlderThanTenMinutesHasItsVolumeReadFirst() {
    claims.claims.put("tikv-basic-tikv-0", new PersistentVolumeClaimBuilder(claim("uid-0", Map.of()))
        .editMetadata().withCreationTimestamp(ClusterContexts.NOW.minus(VolumeCare.NEW_CLAIM).toString())
        .endMetadata()
        .build());
    reconcileAt(ClusterContexts.NOW);
    assertEquals(List.of("pv-0"), claims.volumeReads);
  }

  @Test
  void anOlderCopyOfTheClaimWithoutItsNewLabelWritesNothing() {
    reconcileAt(ClusterContexts.NOW);
    PersistentVolumeClaim older = claims.claims.get("tikv-basic-tikv-0");
    claims.claims.put("tikv-basic-tikv-0", claim("uid-0", Map.of("tidb.pingcap.com/store-id", "4")));
    reconcileAt(ClusterContexts.NOW.plusSeconds(5));
    int writes = claims.calls.size();

    claims.claims.put("tikv-basic-tikv-0", older);
    reconcileAt(ClusterContexts.NOW.plusSeconds(10));
    claims.claims.put("tikv-basic-tikv-0", claim("uid-0", Map.of("tidb.pingcap.com/store-id", "4")));
    reconcileAt(ClusterContexts.NOW.plusSeconds(15));
    assertEquals(writes, claims.calls.size(), "the volume has the label already");
    assertEquals(List.of("pv-0"), claims.volumeReads);
  }

  @Test
  void aRelabelledVolumeIsStillReadAgainAfterTheRecheckPeriodOfItsLastRead() {
    reconcileAt(ClusterContexts.NOW);
    claims.volumes.get("pv-0").getSpec().setPersistentVolumeReclaimPolicy("Recycle");
    claims.claims.put("tikv-basic-tikv-0", claim("uid-0", Map.of("tidb.pingcap.com/store-id", "4")));
    reconcileAt(ClusterContexts.NOW.plus(CheckedVolumes.RECHECK).minusSeconds(10));
    assertEquals(1, claims.volumeReads.size());

    reconcileAt(ClusterContexts.NOW.plus(CheckedVolumes.RECHECK));
    assertEquals(2, claims.volumeReads.size(), "30 minutes after the read, not after the relabel");
    assertEquals("Retain", claims.volumes.get("pv-0").getSpec().getPersistentVolumeReclaimPolicy());
  }

  @Test
  void aVolumeIsLabelledInTheReconcileThatLabelsItsClaim() {
    reconcileAt(ClusterContexts.NOW, Map.of("basic-tikv-0", Map.of("tidb.pingcap.com/store-id", "4")));
    assertEquals("4", claims.claims.get("tikv-basic-tikv-0").getMetadata().getLabels()
        .get("tidb.pingcap.com/store-id"));
    assertEquals("4", claims.volumes.get("pv-0").getMetadata().getLabels()
        .get("tidb.pingcap.com/store-id"));
    reconcileAt(ClusterContexts.NOW.plusSeconds(30),
        Map.of("basic-tikv-0", Map.of("tidb.pingcap.com/store-id", "4")));
    assertEquals(List.of("pv-0"), claims.volumeReads, "read once, not again for the claim's new label");
  }

  @Test
  void aVolumeChangedBySomeoneElseIsRepairedAfterTheRecheckPeriod() {
    reconcileAt(ClusterContexts.NOW);
    claims.volumes.get("pv-0").getSpec().setPersistentVolumeReclaimPolicy("Recycle");

    reconcileAt(ClusterContexts.NOW.plus(CheckedVolumes.RECHECK).minusSeconds(1));
    assertEquals(1, claims.volumeReads.size());
    reconcileAt(ClusterContexts.NOW.plus(CheckedVolumes.RECHECK));
    assertEquals(2, claims.volumeReads.size());
    assertEquals("Retain", claims.volumes.get("pv-0").getSpec().getPersistentVolumeReclaimPolicy());
  }
  @Test
  void withTheVolumeCacheAVolumeChangedBySomeoneElseIsRepairedAtTheNextReconcile() {
    reconcileAt(ClusterContexts.NOW);
    assertEquals(List.of("pv-0"), claims.volumeReads);
    PersistentVolume rewritten = rewritten("Delete", "3");
    claims.volumes.put("pv-0", rewritten);
    claims.cachedVolumes.put("pv-0", new PersistentVolumeBuilder(rewritten).build());

    reconcileAt(ClusterContexts.NOW.plusSeconds(30));
    assertEquals("Retain", claims.volumes.get("pv-0").getSpec().getPersistentVolumeReclaimPolicy());
    assertEquals(List.of("pv-0", "pv-0"), claims.volumeReads, "read again at once, not after "
        + CheckedVolumes.RECHECK);

    // The repair as the cache then shows it: a newer version, carrying what it must.
    claims.cachedVolumes.put("pv-0", new PersistentVolumeBuilder(claims.volumes.get("pv-0"))
        .editMetadata().withResourceVersion("4").endMetadata().build());
    int writes = claims.calls.size();
    reconcileAt(ClusterContexts.NOW.plusSeconds(60));
    assertEquals(2, claims.volumeReads.size(), "a cache that agrees brings no read");
    assertEquals(writes, claims.calls.size(), "nor a write");
  }

  @Test
  void withTheVolumeCacheALabelRemovedBySomeoneElseIsPutBack() {
    reconcileAt(ClusterContexts.NOW);
    PersistentVolume unlabelled = new PersistentVolumeBuilder(claims.volumes.get("pv-0"))
        .editMetadata().withResourceVersion("3").removeFromLabels("app.kubernetes.io/instance")
        .endMetadata().build();
    claims.volumes.put("pv-0", unlabelled);
    claims.cachedVolumes.put("pv-0", new PersistentVolumeBuilder(unlabelled).build());

    reconcileAt(ClusterContexts.NOW.plusSeconds(30));
    assertEquals("basic", claims.volumes.get("pv-0").getMetadata().getLabels()
        .get("app.kubernetes.io/instance"));
  }

  @Test
  void aVolumePatchedUnreadIsNotComparedWithACacheThatMayNotHoldThePatchYet() {
    claims.claims.put("tikv-basic-tikv-0", youngClaim("Bound"));
    reconcileAt(ClusterContexts.NOW);
    assertEquals(List.of(), claims.volumeReads, "patched without a read");
    int writes = claims.calls.size();
    claims.cachedVolumes.put("pv-0", new PersistentVolumeBuilder()
        .withNewMetadata().withName("pv-0").endMetadata()
        .withNewSpec().withPersistentVolumeReclaimPolicy("Delete").endSpec()
        .build());

    reconcileAt(ClusterContexts.NOW.plusSeconds(5));
    assertEquals(List.of(), claims.volumeReads);
    assertEquals(writes, claims.calls.size(), "the stale cache brings no second patch");
  }

  @Test
  void aCacheThatHasNotCaughtUpWithTheOperatorsOwnPatchBringsNoSecondOne() {
    reconcileAt(ClusterContexts.NOW);
    assertEquals("Retain", claims.volumes.get("pv-0").getSpec().getPersistentVolumeReclaimPolicy());
    int writes = claims.calls.size();
    // The version the operator read (and patched from) is still what the cache holds.
    claims.cachedVolumes.put("pv-0", rewritten("Delete", "1"));

    reconcileAt(ClusterContexts.NOW.plusSeconds(30));
    assertEquals(writes, claims.calls.size());
    assertEquals(List.of("pv-0"), claims.volumeReads);

    claims.volumes.put("pv-0", rewritten("Delete", "3"));
    claims.cachedVolumes.put("pv-0", rewritten("Delete", "3"));
    reconcileAt(ClusterContexts.NOW.plusSeconds(60));
    assertEquals(writes + 1, claims.calls.size(), "a later version that differs is repaired");
  }
}
