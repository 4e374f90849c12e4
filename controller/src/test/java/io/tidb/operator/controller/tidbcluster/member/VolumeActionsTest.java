package io.tidb.operator.controller.tidbcluster.member;

import static io.tidb.operator.controller.fixtures.Rollouts.OLD;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder;
import io.tidb.operator.controller.fixtures.ClusterContexts;
import io.tidb.operator.controller.fixtures.FakeVolumeClaims;
import io.tidb.operator.controller.fixtures.Rollouts;
import io.tidb.operator.controller.fixtures.TestClusters;
import io.tidb.operator.controller.tidbcluster.pipeline.ClusterContext;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class VolumeActionsTest {

  private static final String MARKED_AT = "2025-12-31T00:00:00Z";

  private static PersistentVolumeClaim claim(String name, boolean deferred, boolean deleting) {
    PersistentVolumeClaimBuilder b =
        new PersistentVolumeClaimBuilder().withNewMetadata().withName(name).withUid("uid-" + name)
            .endMetadata();
    if (deferred) {
      b.editMetadata().addToAnnotations(VolumeActions.DEFER_DELETING, MARKED_AT).endMetadata();
    } else {
      b.editMetadata().addToAnnotations("other", "x").endMetadata();
    }
    if (deleting) {
      b.editMetadata().withDeletionTimestamp("2026-01-01T00:00:00Z").endMetadata();
    }
    return b.build();
  }

  private static Map<String, PersistentVolumeClaim> byName(PersistentVolumeClaim... claims) {
    Map<String, PersistentVolumeClaim> m = new LinkedHashMap<>();
    for (PersistentVolumeClaim c : claims) {
      m.put(c.getMetadata().getName(), c);
    }
    return m;
  }

  /** basic-tikv with 3 replicas and pods basic-tikv-0 … 2. */
  private static Rollout tikv(int replicas, int pods) {
    Rollouts.Builder b = Rollouts.rollout("basic-tikv", replicas);
    for (int i = 0; i < pods; i++) {
      b.ready(i, OLD);
    }
    return b.build();
  }

  // --- claim names ---

  @Test
  void claimNamesFollowTheStatefulSetConvention() {
    StatefulSet sts =
        new StatefulSetBuilder()
            .withNewMetadata().withName("basic-tikv").endMetadata()
            .withNewSpec()
            .addNewVolumeClaimTemplate().withNewMetadata().withName("tikv").endMetadata().endVolumeClaimTemplate()
            .addNewVolumeClaimTemplate().withNewMetadata().withName("raft").endMetadata().endVolumeClaimTemplate()
            .endSpec()
            .build();
    assertEquals(List.of("tikv-basic-tikv-3", "raft-basic-tikv-3"), VolumeActions.claimNames(sts, 3));
  }

  @Test
  void aStatefulSetWithoutTemplatesHasNoClaims() {
    StatefulSet sts =
        new StatefulSetBuilder().withNewMetadata().withName("basic-tidb").endMetadata()
            .withNewSpec().endSpec().build();
    sts.getSpec().setVolumeClaimTemplates(null);
    assertEquals(List.of(), VolumeActions.claimNames(sts, 0));
  }

  @Test
  void deferredMeansTheAnnotationIsThere() {
    assertTrue(VolumeActions.deferred(claim("a", true, false)));
    assertFalse(VolumeActions.deferred(claim("a", false, false)));
    PersistentVolumeClaim bare =
        new PersistentVolumeClaimBuilder().withNewMetadata().withName("a").endMetadata().build();
    bare.getMetadata().setAnnotations(null);
    assertFalse(VolumeActions.deferred(bare));
  }

  @Test
  void theOrdinalIsTheLastDashSeparatedPart() {
    assertEquals(Optional.of(12), VolumeActions.ordinalOf("tikv-basic-tikv-12"));
    assertEquals(Optional.empty(), VolumeActions.ordinalOf("tikv-basic-tikv-x"));
    assertEquals(Optional.empty(), VolumeActions.ordinalOf("tikv-basic-tikv-"));
    assertEquals(Optional.empty(), VolumeActions.ordinalOf("tikv"));
  }

  // --- before a scale-out ---

  @Test
  void aScaleOutOverNoClaimsGoesAhead() {
    assertEquals(Optional.empty(), VolumeActions.beforeScaleOut(Map.of(), "TiKV"));
  }

  @Test
  void aClaimThatIsNotMarkedIsKeptForTheNewMember() {
    assertEquals(
        Optional.empty(),
        VolumeActions.beforeScaleOut(byName(claim("tikv-basic-tikv-3", false, false)), "TiKV"));
  }

  @Test
  void aMarkedClaimOfANewOrdinalIsDeletedFirst() {
    MemberDecision d =
        VolumeActions.beforeScaleOut(
                byName(claim("tikv-basic-tikv-3", false, false), claim("raft-basic-tikv-3", true, false)),
                "TiKV")
            .orElseThrow();
    MemberDecision.Act a = assertInstanceOf(MemberDecision.Act.class, d);
    assertEquals(new VolumeActions.DeleteClaim("raft-basic-tikv-3", "uid-raft-basic-tikv-3"), a.action());
    assertEquals(
        "deleting volume claim raft-basic-tikv-3, left by an earlier scale-in, so the new TiKV"
            + " member starts with an empty volume",
        a.message());
  }

  @Test
  void theScaleOutWaitsForAMarkedClaimBeingDeleted() {
    MemberDecision d =
        VolumeActions.beforeScaleOut(byName(claim("pd-basic-pd-3", true, true)), "PD")
            .orElseThrow();
    assertEquals(
        MemberDecision.waitFor(
            "waiting for volume claim pd-basic-pd-3 of a removed member to be deleted before"
                + " scaling out"),
        d);
  }

  @Test
  void aClaimNotMarkedButBeingDeletedIsNotWaitedFor() {
    assertEquals(
        Optional.empty(),
        VolumeActions.beforeScaleOut(byName(claim("pd-basic-pd-3", false, true)), "PD"));
  }

  // --- enablePVReclaim ---

  @Test
  void aMarkedClaimAboveTheReplicasWhosePodIsGoneIsReclaimed() {
    MemberDecision d =
        VolumeActions.reclaim(List.of(claim("tikv-basic-tikv-3", true, false)), tikv(3, 3))
            .orElseThrow();
    MemberDecision.Act a = assertInstanceOf(MemberDecision.Act.class, d);
    assertEquals(new VolumeActions.ReclaimClaim("tikv-basic-tikv-3", "uid-tikv-basic-tikv-3", null), a.action());
    assertEquals(
        "deleting volume claim tikv-basic-tikv-3 of a removed member (enablePVReclaim is true)",
        a.message());
  }

  @Test
  void aReclaimedClaimNamesItsVolume() {
    PersistentVolumeClaim pvc = claim("tikv-basic-tikv-3", true, false);
    pvc.setSpec(new io.fabric8.kubernetes.api.model.PersistentVolumeClaimSpecBuilder().withVolumeName("pv-7").build());
    MemberDecision.Act a = assertInstanceOf(MemberDecision.Act.class,
        VolumeActions.reclaim(List.of(pvc), tikv(3, 3)).orElseThrow());
    assertEquals(new VolumeActions.ReclaimClaim("tikv-basic-tikv-3", "uid-tikv-basic-tikv-3", "pv-7"), a.action());
    assertEquals("deleting volume claim tikv-basic-tikv-3 of a removed member and its persistent volume pv-7"
        + " (reclaim policy set to Delete first) (enablePVReclaim is true)", a.message());
  }

  @Test
  void reclaimSkipsClaimsThatMustStay() {
    List<PersistentVolumeClaim> claims =
        List.of(
            claim("tikv-basic-tikv-2", true, false), // below the replicas
            claim("tikv-basic-tikv-4", false, false), // not marked
            claim("tikv-basic-tikv-5", true, true), // already being deleted
            claim("tikv-basic-tikv-x", true, false), // no ordinal
            claim("tikv-basic-tikv-3", true, false)); // its pod is still there
    assertEquals(Optional.empty(), VolumeActions.reclaim(claims, tikv(3, 4)));
  }

  @Test
  void reclaimTakesTheFirstClaimThatQualifies() {
    List<PersistentVolumeClaim> claims =
        List.of(
            claim("tikv-basic-tikv-2", true, false),
            claim("tikv-basic-tikv-4", true, false),
            claim("tikv-basic-tikv-3", true, false));
    MemberDecision.Act a =
        assertInstanceOf(MemberDecision.Act.class, VolumeActions.reclaim(claims, tikv(3, 3)).orElseThrow());
    assertEquals(new VolumeActions.ReclaimClaim("tikv-basic-tikv-4", "uid-tikv-basic-tikv-4", null), a.action());
  }

  // --- the actions ---

  @Test
  void markDeferredAnnotatesExistingUnmarkedClaimsOnly() {
    FakeVolumeClaims claims =
        new FakeVolumeClaims()
            .add("tikv-basic-tikv-3", Map.of(), Map.of())
            .add("raft-basic-tikv-3", Map.of(), Map.of(VolumeActions.DEFER_DELETING, MARKED_AT));
    ClusterContext ctx = ClusterContexts.withClaims(TestClusters.load("basic"), claims);
    VolumeActions.MarkDeferred mark =
        new VolumeActions.MarkDeferred(
            List.of("tikv-basic-tikv-3", "raft-basic-tikv-3", "log-basic-tikv-3"));
    assertEquals("VolumeDeferDeleting", mark.reason());
    mark.perform(ctx);
    assertEquals(List.of("annotate tikv-basic-tikv-3 " + VolumeActions.DEFER_DELETING), claims.calls);
    assertEquals(
        "2026-01-01T00:00:00Z",
        claims.claims.get("tikv-basic-tikv-3").getMetadata().getAnnotations()
            .get(VolumeActions.DEFER_DELETING));
    assertEquals(
        MARKED_AT,
        claims.claims.get("raft-basic-tikv-3").getMetadata().getAnnotations()
            .get(VolumeActions.DEFER_DELETING));
  }

  @Test
  void markDeferredMarksAClaimTheCacheHasNotSeenYet() {
    FakeVolumeClaims claims = new FakeVolumeClaims().add("tikv-basic-tikv-3", Map.of(), Map.of());
    claims.notCached.add("tikv-basic-tikv-3");
    ClusterContext ctx = ClusterContexts.withClaims(TestClusters.load("basic"), claims);
    new VolumeActions.MarkDeferred(List.of("tikv-basic-tikv-3")).perform(ctx);
    assertEquals(List.of("annotate tikv-basic-tikv-3 " + VolumeActions.DEFER_DELETING), claims.calls,
        "marked once, so read from the API server");
  }

  @Test
  void deleteClaimDeletesTheClaimDecidedOn() {
    FakeVolumeClaims claims = new FakeVolumeClaims().add("tikv-basic-tikv-3", Map.of(), Map.of());
    ClusterContext ctx = ClusterContexts.withClaims(TestClusters.load("basic"), claims);
    VolumeActions.DeleteClaim delete = new VolumeActions.DeleteClaim("tikv-basic-tikv-3", "other-uid");
    assertEquals("VolumeClaimDeleted", delete.reason());
    delete.perform(ctx);
    assertEquals(List.of("delete tikv-basic-tikv-3"), claims.calls);
    assertTrue(claims.claims.containsKey("tikv-basic-tikv-3"));
    new VolumeActions.DeleteClaim("tikv-basic-tikv-3", "uid-tikv-basic-tikv-3").perform(ctx);
    assertFalse(claims.claims.containsKey("tikv-basic-tikv-3"));
  }

  @Test
  void reclaimSetsTheVolumeToDeleteBeforeDeletingTheClaim() {
    FakeVolumeClaims claims = new FakeVolumeClaims().add("tikv-basic-tikv-3", Map.of(), Map.of());
    claims.volumes.put("pv-7", new io.fabric8.kubernetes.api.model.PersistentVolumeBuilder()
        .withNewMetadata().withName("pv-7").endMetadata()
        .withNewSpec().withPersistentVolumeReclaimPolicy("Retain").endSpec().build());
    ClusterContext ctx = ClusterContexts.withClaims(TestClusters.load("basic"), claims);
    new VolumeActions.ReclaimClaim("tikv-basic-tikv-3", "other-uid", "pv-7").perform(ctx);
    assertEquals(List.of(), claims.calls, "a claim recreated meanwhile is left alone, and so is its volume");
    VolumeActions.ReclaimClaim reclaim = new VolumeActions.ReclaimClaim("tikv-basic-tikv-3", "uid-tikv-basic-tikv-3", "pv-7");
    assertEquals("VolumeClaimDeleted", reclaim.reason());
    reclaim.perform(ctx);
    assertEquals(List.of("reclaim-policy pv-7 Delete", "delete tikv-basic-tikv-3"), claims.calls);
    assertFalse(claims.claims.containsKey("tikv-basic-tikv-3"));
  }
}
