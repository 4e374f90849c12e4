package io.tidb.operator.controller.tidbcluster.member;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.tidb.operator.api.v1alpha1.cluster.StorageVolumeStatus;
import io.tidb.operator.controller.tidbcluster.member.VolumeResizer.Claim;
import io.tidb.operator.controller.tidbcluster.member.VolumeResizer.Plan;
import io.tidb.operator.controller.tidbcluster.member.VolumeResizer.State;
import io.tidb.operator.controller.tidbcluster.member.VolumeResizer.Verdict;
import io.tidb.operator.controller.tidbcluster.pipeline.VolumeClaims.Expansion;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class VolumeResizerTest {

  private static final Expansion YES = new Expansion(true, "StorageClass fast allows volume expansion");
  private static final Expansion NO =
      new Expansion(false, "StorageClass slow does not allow volume expansion (allowVolumeExpansion is not true)");

  private static Quantity q(String s) {
    return new Quantity(s);
  }

  /** Claim tikv-basic-tikv-{ordinal}: desired, request, capacity, bound, fs pending, class. */
  private static Claim claim(int ordinal, String desired, String request, String capacity, boolean bound,
      boolean fsPending, Expansion expansion) {
    return new Claim("tikv-basic-tikv-" + ordinal, "tikv", ordinal, q(desired), q(request),
        capacity == null ? null : q(capacity), bound, fsPending, expansion);
  }

  private static Claim at(int ordinal, String desired, String request, String capacity) {
    return claim(ordinal, desired, request, capacity, true, false, YES);
  }

  static Stream<Arguments> states() {
    return Stream.of(
        Arguments.of("same size, grown", at(0, "1Gi", "1Gi", "1Gi"), State.RESIZED),
        Arguments.of("same size written differently", at(0, "1024Mi", "1Gi", "1Gi"), State.RESIZED),
        Arguments.of("provisioner gave more than asked", at(0, "1Gi", "1Gi", "10Gi"), State.RESIZED),
        Arguments.of("request patched, capacity behind", at(0, "2Gi", "2Gi", "1Gi"), State.RESIZING),
        Arguments.of("request patched, capacity unknown", at(0, "2Gi", "2Gi", null), State.RESIZING),
        Arguments.of("request patched, file system resize pending",
            claim(0, "2Gi", "2Gi", "1Gi", true, true, YES), State.RESIZED),
        Arguments.of("larger wanted, class allows", at(0, "2Gi", "1Gi", "1Gi"), State.NEEDS_RESIZE),
        Arguments.of("larger wanted, class refuses", claim(0, "2Gi", "1Gi", "1Gi", true, false, NO),
            State.NOT_EXPANDABLE),
        Arguments.of("larger wanted, class unknown", claim(0, "2Gi", "1Gi", "1Gi", true, false, null),
            State.NOT_EXPANDABLE),
        Arguments.of("larger wanted, not bound", claim(0, "2Gi", "1Gi", null, false, false, YES), State.UNBOUND),
        Arguments.of("smaller wanted", at(0, "1Gi", "2Gi", "2Gi"), State.SHRINK),
        Arguments.of("smaller wanted, even unbound", claim(0, "1Gi", "2Gi", null, false, false, NO), State.SHRINK),
        Arguments.of("same size, not bound yet", claim(0, "1Gi", "1Gi", null, false, false, NO), State.RESIZED));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("states")
  void claimStates(String name, Claim claim, State expected) {
    assertEquals(expected, claim.state());
  }

  private static List<Claim> three(String desired, String... requestAndCapacity) {
    List<Claim> out = new ArrayList<>();
    for (int i = 0; i < requestAndCapacity.length / 2; i++) {
      out.add(at(i, desired, requestAndCapacity[2 * i], requestAndCapacity[2 * i + 1]));
    }
    return out;
  }

  @Test
  void nothingToDoReportsVolumesAndDone() {
    Plan plan = VolumeResizer.decide(three("1Gi", "1Gi", "1Gi", "1Gi", "1Gi", "1Gi", "1Gi"), true, Optional.empty());
    assertEquals(Map.of(), plan.resize());
    assertInstanceOf(Verdict.Done.class, plan.verdict());
    StorageVolumeStatus tikv = plan.volumes().get("tikv");
    assertEquals(List.of(3, 3, 3), List.of(tikv.getBoundCount(), tikv.getResizedCount(), tikv.getCurrentCount()));
    assertEquals(q("1Gi"), tikv.getResizedCapacity());
    assertEquals(q("1Gi"), tikv.getCurrentCapacity());
  }

  @Test
  void onePodAtATimeStartsWithTheLowestOrdinal() {
    Plan plan = VolumeResizer.decide(three("2Gi", "1Gi", "1Gi", "1Gi", "1Gi", "1Gi", "1Gi"), true, Optional.empty());
    assertEquals(Map.of("tikv-basic-tikv-0", q("2Gi")), plan.resize());
    assertEquals(new Verdict.InProgress(
            "resizing volume claim tikv-basic-tikv-0 from 1Gi to 2Gi (0 of 3 pods done)"), plan.verdict());
    StorageVolumeStatus tikv = plan.volumes().get("tikv");
    assertEquals(List.of(3, 0, 3), List.of(tikv.getBoundCount(), tikv.getResizedCount(), tikv.getCurrentCount()));
    assertEquals(q("1Gi"), tikv.getCurrentCapacity());
    assertEquals(q("2Gi"), tikv.getResizedCapacity());
  }

  @Test
  void theNextPodWaitsUntilThePreviousClaimHasGrown() {
    Plan plan = VolumeResizer.decide(three("2Gi", "2Gi", "1Gi", "1Gi", "1Gi", "1Gi", "1Gi"), true, Optional.empty());
    assertEquals(Map.of(), plan.resize());
    assertEquals(new Verdict.InProgress("waiting for volume claim tikv-basic-tikv-0 to grow to 2Gi (capacity 1Gi)"
        + " (0 of 3 pods done)"), plan.verdict());
  }

  @Test
  void theNextPodGoesOnceThePreviousHasGrownOrOnlyItsFileSystemIsPending() {
    Plan grown = VolumeResizer.decide(three("2Gi", "2Gi", "2Gi", "1Gi", "1Gi", "1Gi", "1Gi"), true, Optional.empty());
    assertEquals(Map.of("tikv-basic-tikv-1", q("2Gi")), grown.resize());
    assertEquals(new Verdict.InProgress(
        "resizing volume claim tikv-basic-tikv-1 from 1Gi to 2Gi (1 of 3 pods done)"), grown.verdict());
    assertEquals(1, grown.volumes().get("tikv").getResizedCount());

    List<Claim> pending = new ArrayList<>(three("2Gi", "1Gi", "1Gi", "1Gi", "1Gi"));
    pending.add(0, claim(0, "2Gi", "2Gi", "1Gi", true, true, YES));
    pending.remove(1);
    Plan fs = VolumeResizer.decide(pending, true, Optional.empty());
    assertEquals(Map.of("tikv-basic-tikv-1", q("2Gi")), fs.resize());
  }

  @Test
  void allOfAPodsClaimsGoTogether() {
    List<Claim> claims = List.of(
        at(0, "2Gi", "1Gi", "1Gi"),
        new Claim("tikv-raft-basic-tikv-0", "tikv-raft", 0, q("4Gi"), q("2Gi"), q("2Gi"), true, false, YES),
        at(1, "2Gi", "1Gi", "1Gi"));
    Plan plan = VolumeResizer.decide(claims, true, Optional.empty());
    assertEquals(Map.of("tikv-basic-tikv-0", q("2Gi"), "tikv-raft-basic-tikv-0", q("4Gi")), plan.resize());
    assertEquals(2, plan.volumes().size());
  }

  @Test
  void allAtOnceResizesEveryClaimInOneReconcile() {
    Plan plan = VolumeResizer.decide(three("2Gi", "1Gi", "1Gi", "1Gi", "1Gi"), false, Optional.empty());
    assertEquals(Map.of("tikv-basic-tikv-0", q("2Gi"), "tikv-basic-tikv-1", q("2Gi")), plan.resize());
    assertEquals(new Verdict.InProgress(
        "resizing volume claims tikv-basic-tikv-0, tikv-basic-tikv-1 from 1Gi to 2Gi"), plan.verdict());

    Plan waiting = VolumeResizer.decide(three("2Gi", "2Gi", "1Gi", "2Gi", "1Gi"), false, Optional.empty());
    assertEquals(Map.of(), waiting.resize());
    assertEquals(new Verdict.InProgress(
        "waiting for 2 volume claims (tikv-basic-tikv-0, tikv-basic-tikv-1) to grow to their new size"),
        waiting.verdict());
  }

  @Test
  void aHeldResizeStartsNothingButWaitsForWhatWasSent() {
    Optional<String> held = Optional.of("volumes are resized when TiKV is no longer being upgraded");
    Plan plan = VolumeResizer.decide(three("2Gi", "1Gi", "1Gi", "1Gi", "1Gi"), true, held);
    assertEquals(Map.of(), plan.resize());
    assertEquals(new Verdict.InProgress(
        "resizing 2 volume claims waits: volumes are resized when TiKV is no longer being upgraded"), plan.verdict());

    Plan sent = VolumeResizer.decide(three("2Gi", "2Gi", "1Gi", "1Gi", "1Gi"), false, held);
    assertEquals(Map.of(), sent.resize());
    assertTrue(((Verdict.InProgress) sent.verdict()).message().startsWith("waiting for volume claim tikv-basic-tikv-0"));
  }

  @Test
  void aShrinkIsRefusedAndNothingIsPatched() {
    Plan plan = VolumeResizer.decide(three("1Gi", "2Gi", "2Gi", "2Gi", "2Gi"), true, Optional.empty());
    assertEquals(Map.of(), plan.resize());
    assertEquals(new Verdict.Blocked(VolumeResizer.SHRINK_NOT_SUPPORTED,
        "volume tikv: 2 claims (tikv-basic-tikv-0, tikv-basic-tikv-1) request 2Gi, more than the desired 1Gi;"
            + " volume shrinking is not supported, set the size back"), plan.verdict());
    StorageVolumeStatus tikv = plan.volumes().get("tikv");
    assertEquals(2, tikv.getResizedCount(), "capacity at or above the spec counts as resized");
  }

  @Test
  void aClassWithoutExpansionIsReportedAndNothingIsPatched() {
    List<Claim> claims = List.of(claim(0, "2Gi", "1Gi", "1Gi", true, false, NO),
        claim(1, "2Gi", "1Gi", "1Gi", true, false, NO));
    Plan plan = VolumeResizer.decide(claims, true, Optional.empty());
    assertEquals(Map.of(), plan.resize());
    assertEquals(new Verdict.Blocked(VolumeResizer.EXPANSION_NOT_SUPPORTED,
        "volume tikv: cannot expand 2 claims (tikv-basic-tikv-0, tikv-basic-tikv-1) from 1Gi to 2Gi: StorageClass"
            + " slow does not allow volume expansion (allowVolumeExpansion is not true)"), plan.verdict());
  }

  @Test
  void aBlockedVolumeDoesNotStopAnotherThatCanGrow() {
    List<Claim> claims = List.of(
        claim(0, "2Gi", "1Gi", "1Gi", true, false, YES),
        new Claim("tikv-raft-basic-tikv-0", "tikv-raft", 0, q("4Gi"), q("2Gi"), q("2Gi"), true, false, NO));
    Plan plan = VolumeResizer.decide(claims, true, Optional.empty());
    assertEquals(Map.of("tikv-basic-tikv-0", q("2Gi")), plan.resize());
    Verdict.Blocked b = assertInstanceOf(Verdict.Blocked.class, plan.verdict());
    assertEquals(VolumeResizer.EXPANSION_NOT_SUPPORTED, b.reason());
    assertTrue(b.message().endsWith("; resizing volume claim tikv-basic-tikv-0 from 1Gi to 2Gi (0 of 1 pods done)"),
        b.message());
  }

  @Test
  void unboundClaimsAreNotCountedNorPatched() {
    List<Claim> claims = List.of(claim(0, "2Gi", "1Gi", null, false, false, YES), at(1, "2Gi", "2Gi", "2Gi"));
    Plan plan = VolumeResizer.decide(claims, true, Optional.empty());
    assertEquals(Map.of(), plan.resize());
    assertInstanceOf(Verdict.Done.class, plan.verdict());
    assertEquals(1, plan.volumes().get("tikv").getBoundCount());
  }

  @Test
  void claimIsReadFromTheObject() {
    PersistentVolumeClaim pvc = new PersistentVolumeClaimBuilder()
        .withNewMetadata().withName("pd-basic-pd-0").endMetadata()
        .withNewSpec().withNewResources().addToRequests("storage", q("2Gi")).endResources().endSpec()
        .withNewStatus().withPhase("Bound").addToCapacity("storage", q("1Gi"))
        .addNewCondition().withType("FileSystemResizePending").withStatus("True").endCondition()
        .endStatus()
        .build();
    Claim c = VolumeResizer.claim(pvc, "pd", 0, q("2Gi"), null);
    assertEquals(new Claim("pd-basic-pd-0", "pd", 0, q("2Gi"), q("2Gi"), q("1Gi"), true, true, null), c);
    assertEquals(State.RESIZED, c.state());
    pvc.getSpec().getResources().setRequests(null);
    assertEquals(null, VolumeResizer.claim(pvc, "pd", 0, q("2Gi"), null));
  }
}
